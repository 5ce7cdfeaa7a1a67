// The C++ half of `testmap backend scan`: prefilter the backend's
// translation units by text, serve unchanged ones from the cache, and hand
// the rest to the Clang reader (testmap-backend-clang) in one run.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"
#include "analyzers/backend/source_tree.h"
#include "analyzers/backend/torch_probe.h"
#include "analyzers/python/kv_cache.h"

namespace testmap::backend {

struct CppScanOptions {
  std::string build_dir;                   // holds compile_commands.json; empty: default flags
  const TorchProbe* torch = nullptr;       // for default flags; null when unavailable
  python::KeyValueCache* cache = nullptr;  // null: no cache
  int jobs = 1;
  std::string clang_reader;  // the testmap-backend-clang executable
  std::function<void(size_t done, size_t total)> progress;
};

struct CppScanResult {
  std::vector<Registration> records;  // files absolute
  std::vector<Diagnostic> diagnostics;
  size_t units = 0;        // translation units under the paths
  size_t prefiltered = 0;  // of them, left out by the text prefilter
  size_t cache_hits = 0;
  size_t read = 0;                          // parsed by Clang in this run
  double clang_seconds = 0;                 // wall time of the Clang reader run
  std::vector<std::string> backend_macros;  // the backend's own registration macros
};

CppScanResult ScanCpp(const SourceTree& tree, const CppScanOptions& options);

// testmap-backend-clang next to the running executable, or
// $TESTMAP_BACKEND_CLANG; empty when neither exists.
std::string FindClangReader();

}  // namespace testmap::backend
