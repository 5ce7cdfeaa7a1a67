// Scanning trees of test files: discovery as pytest does it (test_*.py and
// *_test.py, pytest's default norecursedirs), all cores, and the
// content-keyed cache. Output order is deterministic: files sorted by path.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzers/python/test_collector.h"
#include "analyzers/python/test_record.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::python {

struct TreeScanOptions {
  std::vector<std::string> paths;  // files and directories
  std::string rootdir;             // node ids are relative to it
  int jobs = 0;                    // 0: all cores
  CollectOptions collect;
  // Where the torch snapshot comes from: an explicit file, or a Python
  // whose torch is snapshotted (and cached) when a file first needs it.
  std::string snapshot_file;
  std::string torch_python;
  std::string cache_dir;  // scan cache and snapshots; empty: no cache
  std::function<void(size_t done, size_t total)> progress;  // called from one thread
};

struct TreeScanResult {
  std::vector<FileScan> files;
  std::vector<std::string> warnings;  // walk problems (symlink loops, unreadable dirs)
  size_t cache_hits = 0;
  std::string snapshot_error;  // why torch metadata was unavailable, if it was needed
  std::string torch_version;   // of the snapshot used, if any
};

// Lists the test files under `paths` (sorted, unique), as pytest would
// collect them; appends walk problems to `warnings`.
std::vector<std::string> DiscoverTestFiles(const std::vector<std::string>& paths,
                                           std::vector<std::string>* warnings);

TreeScanResult ScanTree(const TreeScanOptions& options);

}  // namespace testmap::python
