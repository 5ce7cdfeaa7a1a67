// Real files for tests: a scratch directory per test, and reading and
// writing whole files through the same paths a user's file takes.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace testmap::testing {

// A fresh directory under $TMPDIR, removed with the object.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `content` to path()/rel (parents created); returns the full path.
  std::string Write(const std::string& rel, const std::string& content) const;

 private:
  std::filesystem::path path_;
};

// Writes `content` to `name` in a directory of this test process (removed
// when it exits); returns the full path. For bad-input files a reader
// must be shown.
std::string WriteTempFile(const std::string& name, const std::string& content);

// A fresh, empty directory `name` in that same per-process directory.
std::string ScratchDir(const std::string& name);

// The whole file, or "" when it cannot be read.
std::string ReadFile(const std::string& path);
void WriteFile(const std::string& path, const std::string& content);

// Non-empty lines of `text`.
std::vector<std::string> Lines(const std::string& text);

// A file of the repository (`tests/timings/data/x.xml`), by its path
// relative to the source root.
std::string SourcePath(const std::string& rel);

// Copies the regular files of the repository's folder `rel` (the test files
// of `examples/suite`, not an index a local run left in its .testmap/) into
// `dest`; returns their new paths.
std::vector<std::filesystem::path> CopySourceFiles(const std::string& rel,
                                                   const std::filesystem::path& dest);

// A file a test needs from outside the repo (../shared/data): its path when
// it exists, else "" after recording a test failure when CI is set, so that
// CI never passes without it silently. On a developer's clone the caller
// skips: `auto p = ExternalData(x); if (p.empty()) GTEST_SKIP() << x;`
std::string ExternalData(const std::string& path);

}  // namespace testmap::testing
