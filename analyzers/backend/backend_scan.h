// `testmap backend scan`: what a backend registers, read from its sources.
// Runs the C++ reader (Clang, through the prefilter and cache) and the
// Python reader over the same tree, then checks every operator name
// against torch's registry and the backend's own definitions.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"

namespace testmap::backend {

struct BackendScanOptions {
  std::vector<std::string> paths;  // backend source folders or files
  std::string build_dir;           // compile_commands.json lives here; empty: default flags
  std::string torch_python;        // the Python whose torch the backend builds against
  std::string cache_dir;           // empty: no cache
  std::string snapshot_dir;        // the torch snapshot's, cache or not; empty: the default
  int jobs = 0;                    // Clang reader threads; 0: all cores
  std::string clang_reader;        // empty: next to the running executable
  // Called as C++ units are read (done of total).
  std::function<void(size_t done, size_t total)> progress;
};

struct BackendScanStats {
  size_t cpp_units = 0, cpp_prefiltered = 0, cpp_cache_hits = 0, cpp_read = 0;
  size_t python_modules = 0;
  double clang_seconds = 0;
};

struct BackendScan {
  std::vector<Registration> records;  // OutputOrder; files relative to `base`
  std::vector<Diagnostic> diagnostics;
  std::string base;           // the folder record files are relative to
  std::string torch_version;  // of --torch-python's torch, when it could be probed
  // Every operator name the scan knows (torch's dispatcher operators and
  // the backend's own definitions): for suggestions next to unknown ones.
  std::vector<std::string> known_ops;
  std::vector<std::string> backend_macros;  // registration macros the backend defines
  BackendScanStats stats;
  // Some file could not be read completely: the answer is partial.
  bool partial() const;
};

BackendScan ScanBackend(const BackendScanOptions& options);

}  // namespace testmap::backend
