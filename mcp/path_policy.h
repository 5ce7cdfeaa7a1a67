// Which files the server may read: only those under the paths it was
// started with (`--allow`; the index itself is read through RocksDB only).
// A path is checked twice: as written, made absolute and normalized, before
// anything touches the filesystem (so `../../etc/passwd` is refused without
// a stat), and again after symlinks are resolved (so a link under an
// allowed directory cannot lead out of it).
#pragma once

#include <string>
#include <vector>

namespace testmap::mcp {

class PathPolicy {
 public:
  // Throws core::UsageError for a root that does not exist.
  explicit PathPolicy(const std::vector<std::string>& roots);

  // The resolved path of `path` (relative to the server's working
  // directory) when it lies under an allowed root. Throws core::InputError
  // naming the allowed roots otherwise, or when the file does not exist.
  std::string Resolve(const std::string& path) const;

  const std::vector<std::string>& roots() const { return roots_; }

 private:
  bool Under(const std::string& path) const;

  std::vector<std::string> roots_;  // canonical
};

// What a file is now (its path, size and modification time), for cache
// keys: an answer read from a file is not reused once the file changes.
std::string FileStamp(const std::string& path);

}  // namespace testmap::mcp
