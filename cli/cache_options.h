// --cache-dir and --no-cache, for the commands that cache what reading a
// file found by its content (scan, backend scan): one spelling, one default.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::cli {

struct CacheOptions {
  std::string dir;
  bool off = false;

  // The directory to cache in; "" with --no-cache.
  std::string Dir() const {
    if (off) return "";
    return SnapshotDir();
  }
  // Where torch snapshots are kept, --no-cache or not: a snapshot is what
  // torch is, not what a file was found to hold, and making one imports
  // torch (seconds).
  std::string SnapshotDir() const { return dir.empty() ? torch_snapshot::DefaultCacheDir() : dir; }
};

inline void AddCacheOptions(CLI::App* cmd, CacheOptions& options) {
  cmd->add_option("--cache-dir", options.dir,
                  "cache directory (default: $TESTMAP_CACHE_DIR, else $XDG_CACHE_HOME/testmap, "
                  "else ~/.cache/testmap)");
  cmd->add_flag("--no-cache", options.off,
                "read every file afresh, caching nothing (torch's snapshot is still "
                "kept in the cache directory)");
}

}  // namespace testmap::cli
