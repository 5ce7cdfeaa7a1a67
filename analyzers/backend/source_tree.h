// The files of a backend under the paths given to `testmap backend scan`:
// C++ translation units, headers and Python modules. Test code (test/ and
// tests/ folders, test_*.py, conftest.py) and build products are left out:
// they are not what the backend registers when it is imported.
#pragma once

#include <string>
#include <vector>

namespace testmap::backend {

struct SourceTree {
  std::vector<std::string> roots;  // absolute directories: each directory PATH, a file's folder
  std::string base;                // their common ancestor: record files are relative to it
  std::vector<std::string> cpp_sources, headers, python_files;  // absolute, sorted
  std::vector<std::string> missing;                             // PATHs that do not exist
};

SourceTree DiscoverSources(const std::vector<std::string>& paths);

// `path` relative to `base` when under it, else as given.
std::string RelativeTo(const std::string& path, const std::string& base);

}  // namespace testmap::backend
