// One side of `testmap diff`: the tests a version of the suite has, each
// with its content identities (analyzers/python/content_identity.h), read
// from what the user has at hand: a scan's JSONL output, an index (its scan
// records), or a test tree scanned here against a torch.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::diff {

// One instantiated test as a side knows it: the scan record's fields the
// delta and the config effect need, kept small (a side can hold half a
// million): hashes as numbers, the generic id's parts parsed on demand.
struct SideTest {
  std::string nodeid, generic_id;
  std::string kind, device, op, module;
  std::string dtypes;  // params.dtypes joined with ',', in id order
  int line = 0;
  // The record's hex digests as numbers (HashValue); 0 when absent.
  // Records written before content identities have only source_hash (the
  // delta then compares that alone).
  uint64_t source_hash = 0;
  uint64_t body = 0, decorators = 0, setup = 0, entry = 0, dtypes_hash = 0;
};

// A hex digest as a number: 16 digits as they are, 32 folded; any other
// text by a hash of it. Never 0 for a non-empty digest.
uint64_t HashValue(std::string_view digest);

struct Side {
  std::string label;          // the path as given
  std::string kind;           // scan | index | tree
  std::string torch_version;  // of the snapshot a tree was scanned with ("" when unknown)
  std::vector<SideTest> tests;
  // A tree whose scan was partial (files skipped, tests that could not be
  // enumerated): the delta is then partial too. The problems, one a line.
  bool partial = false;
  std::vector<std::string> problems;
  double seconds = 0;  // time taken to read (or scan) it
};

struct SideOptions {
  std::string torch_python;                 // for a tree: whose torch's OpInfos expand @ops
  std::string snapshot;                     // for a tree: a snapshot file instead
  std::string cache_dir;                    // for a tree: scan cache and snapshots ("" no cache)
  std::vector<std::string> devices{"cpu"};  // as `scan --device`
};

// Whether `path` is a directory holding an index (its CURRENT file), the
// first thing ReadSide asks of a directory.
bool IsIndexDir(const std::string& path);

// Reads `path`: a directory holding an index, a directory or .py file of
// tests (scanned with `options`), or a `testmap scan --format jsonl` file.
// Throws core::InputError naming the file and line of bad input.
Side ReadSide(const std::string& path, const SideOptions& options);

// The records of a scan JSONL file, read in pieces (a side can be
// gigabytes; core::kDefaultMaxInputBytes bounds it as every input). A last
// line cut short is dropped (core/jsonl_lines.h's rule) and said in
// `problems`: the side is then partial, since its missing tests would read
// as removed. Throws core::InputError naming the file and line.
std::vector<SideTest> ReadScanFile(const std::string& path, std::vector<std::string>* problems);

}  // namespace testmap::diff
