// The files of a backend under the paths given to `testmap backend scan`:
// C++ translation units, headers and Python modules. Test code (test/ and
// tests/ folders, test_*.py, conftest.py) and build products are left out:
// they are not what the backend registers when it is imported.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"

namespace testmap::backend {

struct SourceTree {
  std::vector<std::string> roots;  // absolute directories: each directory PATH, a file's folder
  std::string base;                // their common ancestor: record files are relative to it
  std::vector<std::string> cpp_sources, headers, python_files;  // absolute, sorted
  std::vector<std::string> missing;                             // PATHs that do not exist
};

SourceTree DiscoverSources(const std::vector<std::string>& paths);

// The largest source file the readers take (64 MiB): bigger ones are
// reported and left out before anything is read.
inline constexpr uint64_t kMaxSourceBytes = uint64_t{64} << 20;

// A backend source file's text; when it cannot be read (missing, a
// directory, over kMaxSourceBytes), nullopt and `error` says why.
std::optional<std::string> ReadSourceFile(const std::string& path, Diagnostic* error);

// `path` relative to `base` when under it, else as given.
std::string RelativeTo(const std::string& path, const std::string& base);

}  // namespace testmap::backend
