// The analyzers' result cache: a key-value store in RocksDB (the project's
// only store) with batched writes and no log, where a lost entry only costs
// a re-read. The test scan keeps its file results here (scan_cache.h), the
// backend scan what reading a translation unit found and its torch probe
// (analyzers/backend); each builds its own keys from the content and
// everything else the answer depends on.
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

namespace testmap::python {

class KeyValueCache {
 public:
  // Opens (creating) the cache at `dir`; null with `error` set when it
  // cannot (another process holds it): the scan then runs without one.
  static std::unique_ptr<KeyValueCache> Open(const std::string& dir, std::string* error);
  ~KeyValueCache();

  std::optional<std::string> Get(std::string_view key);
  // Queued (from any thread); Flush() writes everything queued in one
  // batch, each key once.
  void Put(std::string key, std::string value);
  void Flush();

 private:
  explicit KeyValueCache(rocksdb::DB* db);
  std::unique_ptr<rocksdb::DB> db_;
  std::mutex mu_;
  std::vector<std::pair<std::string, std::string>> pending_;
};

}  // namespace testmap::python
