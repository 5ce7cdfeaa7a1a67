// Scanning trees of test files: discovery as pytest does it (test_*.py and
// *_test.py, pytest's default norecursedirs), all cores, and the
// content-keyed cache. Output order is deterministic: files sorted by path.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/python/collector.h"
#include "analyzers/python/output_bytes.h"
#include "analyzers/python/scan_format.h"
#include "analyzers/python/scanned_test.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::python {

// Files larger than this are not read (a test file is rarely over 1 MiB;
// PyTorch's largest is under 1 MiB): parsing costs ~20x a file's size in
// memory. `testmap scan --max-file-size` changes it.
inline constexpr uint64_t kDefaultMaxFileBytes = uint64_t{8} << 20;

struct TreeScanOptions {
  std::vector<std::string> paths;  // files and directories
  // Node ids are relative to it; a file outside it is relative to the path
  // argument that holds it (pytest_rootdir.h).
  std::string rootdir;
  int jobs = 0;  // 0: all cores
  uint64_t max_file_bytes = kDefaultMaxFileBytes;
  CollectOptions collect;
  // Where the torch snapshot comes from: an explicit file, or a Python
  // whose torch is snapshotted (and cached) when a file first needs it.
  std::string snapshot_file;
  std::string torch_python;
  std::string cache_dir;  // the scan cache; empty: none
  // Where a snapshot made from torch_python is kept, with or without a
  // scan cache (making one imports torch: seconds); empty: the default.
  std::string snapshot_dir;
  std::function<void(size_t done, size_t total)> progress;  // called from one thread
  // When set, the result's `output` holds the rendered output in this
  // format, and its files carry no tests, only their flags and diagnostics
  // (each file's tests are rendered as soon as they are known, and
  // dropped). With a cache_dir a tree whose files, options and snapshot are
  // all unchanged is answered from the tree's last output, and otherwise
  // the files whose stat is unchanged since add their part of that output
  // (tree_output_cache.h).
  std::optional<ScanFormat> output;
};

struct TreeScanResult {
  std::vector<FileScan> files;
  std::vector<std::string> warnings;  // walk notes (symlink loops)
  // Paths that could not be scanned: missing, unreadable directories. The
  // answer is then partial.
  std::vector<std::string> errors;
  size_t cache_hits = 0;
  size_t tests = 0;                // in all files
  OutputBytes output;              // rendered, when TreeScanOptions::output is set
  bool output_from_cache = false;  // served whole from the tree output cache
  // Files whose part of the output came from the tree output cache's
  // entry for an earlier state of the tree (their stat unchanged since).
  size_t segments_reused = 0;
  std::string snapshot_error;        // why torch metadata was unavailable, if it was needed
  std::string snapshot_setup_error;  // why the torch Python gave no snapshot, needed or not
  std::string torch_version;         // of the snapshot used, if any
};

// Lists the test files under `paths` (sorted, unique), as pytest would
// collect them; appends notes (symlink loops) to `warnings` and paths that
// could not be read (missing, unlistable directories) to `errors`.
std::vector<std::string> DiscoverTestFiles(const std::vector<std::string>& paths,
                                           std::vector<std::string>* warnings,
                                           std::vector<std::string>* errors);

// Throws core::InputError when the snapshot file given cannot be loaded;
// a Python's snapshot that cannot be made is reported in snapshot_error,
// for the files that need it.
TreeScanResult ScanTree(const TreeScanOptions& options);

// Whether the result is partial: files skipped, paths missing, tests that
// could not be enumerated exactly.
bool IsPartial(const TreeScanResult& result);

}  // namespace testmap::python
