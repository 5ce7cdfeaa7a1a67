// Which files the server may read: only those under the paths it was
// started with (`--allow`; the index itself is read through RocksDB only).
// A path is checked twice: as written, made absolute and normalized, before
// anything touches the filesystem (so `../../etc/passwd` is refused without
// a stat), and again after symlinks are resolved (so a link under an
// allowed directory cannot lead out of it).
#pragma once

#include <string>
#include <vector>

#include "core/errors.h"

namespace testmap::mcp {

class PathPolicy {
 public:
  // Throws core::UsageError for a root that does not exist.
  explicit PathPolicy(const std::vector<std::string>& roots);

  // What a path must be: a regular file (timing files, configs), or either
  // (a side of `diff`: a scan file, an index or a test tree).
  enum class Kind { kFile, kFileOrDirectory };

  // The resolved path of `path` (relative to the server's working
  // directory) when it lies under an allowed root. Throws core::InputError
  // naming the allowed roots otherwise, or when the file does not exist.
  std::string Resolve(const std::string& path, Kind kind = Kind::kFile) const;

  // A program the server may run (a test tree's torch Python): `path` as
  // written, made absolute and normalized, under an allowed root and, its
  // symlinks followed, an executable regular file. The link itself is
  // returned, not its target: a virtualenv's python is a link to the base
  // interpreter and finds its environment by the path it was started as.
  std::string ResolveProgram(const std::string& path) const;

  // Whether an absolute, normalized path lies under an allowed root.
  bool Allows(const std::string& path) const { return Under(path); }

  const std::vector<std::string>& roots() const { return roots_; }

 private:
  bool Under(const std::string& path) const;  // under a canonical root
  static bool Within(const std::string& path, const std::vector<std::string>& roots);
  // `path` made absolute and normalized, refused unless under a root.
  std::string Lexical(const std::string& path) const;
  core::InputError Refusal(const std::string& path, const std::string& why) const;

  std::vector<std::string> roots_;    // canonical
  std::vector<std::string> written_;  // as given, absolute and normalized
};

// What a file is now (its path, size and modification time), for cache
// keys: an answer read from a file is not reused once the file changes.
std::string FileStamp(const std::string& path);

}  // namespace testmap::mcp
