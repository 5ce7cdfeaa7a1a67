#include "tests/support/temp_dir.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace testmap::testing {

namespace fs = std::filesystem;

TempDir::TempDir() {
  std::string tmpl = (fs::temp_directory_path() / "testmap-test-XXXXXX").string();
  if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
  path_ = tmpl;
}

TempDir::~TempDir() {
  std::error_code ignored;
  fs::remove_all(path_, ignored);
}

std::string TempDir::Write(const std::string& rel, const std::string& content) const {
  fs::path p = path_ / rel;
  fs::create_directories(p.parent_path());
  WriteFile(p.string(), content);
  return p.string();
}

namespace {

const TempDir& ProcessDir() {
  static TempDir dir;
  return dir;
}

}  // namespace

std::string WriteTempFile(const std::string& name, const std::string& content) {
  return ProcessDir().Write(name, content);
}

std::string ScratchDir(const std::string& name) {
  fs::path dir = ProcessDir().path() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir.string();
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

std::string SourcePath(const std::string& rel) {
  return std::string(TESTMAP_SOURCE_DIR) + "/" + rel;
}

std::vector<fs::path> CopySourceFiles(const std::string& rel, const fs::path& dest) {
  std::vector<fs::path> copied;
  for (const auto& e : fs::directory_iterator(SourcePath(rel))) {
    if (!e.is_regular_file()) continue;
    copied.push_back(dest / e.path().filename());
    fs::copy_file(e.path(), copied.back());
  }
  return copied;
}

std::string ExternalData(const std::string& path) {
  if (fs::exists(path)) return path;
  const char* ci = std::getenv("CI");
  if (ci && *ci && std::string(ci) != "0" && std::string(ci) != "false") {
    ADD_FAILURE() << path << " is missing, and CI=" << ci << " does not allow skipping";
  }
  return "";
}

}  // namespace testmap::testing
