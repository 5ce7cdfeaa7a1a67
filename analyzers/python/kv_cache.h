// The analyzers' result cache: a key-value store in RocksDB (the project's
// only store) with batched writes and no log, where a lost entry only costs
// a re-read. The test scan keeps its file results here (scan_cache.h), the
// backend scan what reading a translation unit found and its torch probe
// (analyzers/backend); each builds its own keys from the content and
// everything else the answer depends on.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

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
  // Writes an entry from any thread, into memory only (no write-ahead log:
  // a lost entry only costs a re-read); Flush() makes what was put durable.
  // The copy into the store happens on the putting thread, so a scan's
  // workers share it.
  void Put(std::string_view key, std::string_view value);
  // Writes what was put to a table file; safe beside Get and Put.
  void Flush();

 private:
  explicit KeyValueCache(rocksdb::DB* db);
  std::unique_ptr<rocksdb::DB> db_;
};

}  // namespace testmap::python
