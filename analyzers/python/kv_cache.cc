#include "analyzers/python/kv_cache.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>

#include <filesystem>

#include "core/rocksdb_no_log.h"

namespace testmap::python {

KeyValueCache::KeyValueCache(rocksdb::DB* db) : db_(db) {}
KeyValueCache::~KeyValueCache() = default;

std::unique_ptr<KeyValueCache> KeyValueCache::Open(const std::string& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kLZ4Compression;
  // No info log (core/rocksdb_no_log.h): a cache should not grow a trail of
  // them, one per scan, and one on a full disk aborted the scan.
  options.info_log = core::RocksDbNoLog();
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &db);
  if (!s.ok()) {
    *error = dir + ": " + s.ToString();
    return nullptr;
  }
  return std::unique_ptr<KeyValueCache>(new KeyValueCache(db));
}

std::optional<std::string> KeyValueCache::Get(std::string_view key) {
  std::string value;
  if (!db_->Get(rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()), &value).ok())
    return std::nullopt;
  return value;
}

void KeyValueCache::Put(std::string_view key, std::string_view value) {
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  db_->Put(write, rocksdb::Slice(key.data(), key.size()),
           rocksdb::Slice(value.data(), value.size()));
}

void KeyValueCache::Flush() {
  // Flushing to a table file now means the next open replays nothing
  // (replaying a log was most of a warm scan's time); with nothing put
  // since the last flush this writes nothing.
  db_->Flush(rocksdb::FlushOptions());
}

}  // namespace testmap::python
