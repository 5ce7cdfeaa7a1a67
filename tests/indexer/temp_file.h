// Real files for reader tests: bad inputs are written to a temp dir and read
// through the same path a user's file takes.
#pragma once

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace testmap::testing {

inline std::string WriteTemp(const std::string& name, const std::string& content) {
  auto dir = std::filesystem::temp_directory_path() / ("testmap-test-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

inline std::string DataPath(const std::string& name) {
  return std::string(TESTMAP_SOURCE_DIR) + "/tests/indexer/data/" + name;
}

}  // namespace testmap::testing
