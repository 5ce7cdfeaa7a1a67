// One side of `testmap diff`: the tests a version of the suite has, each
// with its content identities (analyzers/python/content_identity.h), read
// from what the user has at hand: a scan's JSONL output, an index (its scan
// records), or a test tree scanned here against a torch.
#pragma once

#include <string>
#include <vector>

namespace testmap::diff {

// One instantiated test as a side knows it: the scan record's fields the
// delta and the config effect need.
struct SideTest {
  std::string nodeid, generic_id;
  std::string file, generic_class, generic_method, kind;
  std::string device, op, module;
  std::vector<std::string> dtypes;
  int line = 0;
  std::string source_hash;
  // content.* of the record; empty in records written before content
  // identities (the delta then compares source_hash only).
  std::string body, decorators, setup, entry, dtypes_hash;
};

struct Side {
  std::string label;  // the path as given
  std::string kind;   // scan | index | tree
  std::string torch_version;  // of the snapshot a tree was scanned with ("" when unknown)
  std::vector<SideTest> tests;
  // A tree whose scan was partial (files skipped, tests that could not be
  // enumerated): the delta is then partial too. The problems, one a line.
  bool partial = false;
  std::vector<std::string> problems;
  double seconds = 0;  // time taken to read (or scan) it
};

struct SideOptions {
  std::string torch_python;  // for a tree: whose torch's OpInfos expand @ops
  std::string snapshot;      // for a tree: a snapshot file instead
  std::string cache_dir;     // for a tree: scan cache and snapshots ("" no cache)
  std::vector<std::string> devices{"cpu"};  // as `scan --device`
};

// Reads `path`: a directory holding an index, a directory or .py file of
// tests (scanned with `options`), or a `testmap scan --format jsonl` file.
// Throws core::InputError naming the file and line of bad input.
Side ReadSide(const std::string& path, const SideOptions& options);

// The records of scan JSONL text (`path` names it in errors). A last line
// cut short is dropped (core/jsonl_lines.h's rule) and said in `problems`:
// the side is then partial, since its missing tests would read as removed.
std::vector<SideTest> ParseScanRecords(const std::string& text, const std::string& path,
                                       std::vector<std::string>* problems);

}  // namespace testmap::diff
