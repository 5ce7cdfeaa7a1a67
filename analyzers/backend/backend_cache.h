// The backend scan's cache: what reading a translation unit found, keyed by
// its content and everything else the answer depends on (compile flags,
// torch, reader version), and the torch probe, keyed by the torch install.
// Stored in RocksDB (the project's only store) the way the test scan's
// cache is (analyzers/python/scan_cache.h): batched writes, no log.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocksdb {
class DB;
}

namespace testmap::backend {

class BackendCache {
 public:
  // Opens (creating) the cache at `dir`; null with `error` set when it
  // cannot (another process holds it): the scan then runs without one.
  static std::unique_ptr<BackendCache> Open(const std::string& dir, std::string* error);
  ~BackendCache();

  std::optional<std::string> Get(std::string_view key);
  // Queued; Flush() writes everything queued in one batch.
  void Put(std::string key, std::string value);
  void Flush();

 private:
  explicit BackendCache(rocksdb::DB* db);
  std::unique_ptr<rocksdb::DB> db_;
  std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> pending_;
};

}  // namespace testmap::backend
