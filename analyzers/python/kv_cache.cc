#include "analyzers/python/kv_cache.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <algorithm>
#include <filesystem>

namespace testmap::python {

KeyValueCache::KeyValueCache(rocksdb::DB* db) : db_(db) {}
KeyValueCache::~KeyValueCache() = default;

std::unique_ptr<KeyValueCache> KeyValueCache::Open(const std::string& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kLZ4Compression;
  // A cache should not grow a trail of info logs, one per scan.
  options.keep_log_file_num = 1;
  options.info_log_level = rocksdb::WARN_LEVEL;
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

void KeyValueCache::Put(std::string key, std::string value) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_.emplace_back(std::move(key), std::move(value));
}

void KeyValueCache::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  if (pending_.empty()) return;
  // Identical inputs share a key: write each once.
  std::sort(pending_.begin(), pending_.end());
  pending_.erase(std::unique(pending_.begin(), pending_.end(),
                             [](const auto& a, const auto& b) { return a.first == b.first; }),
                 pending_.end());
  rocksdb::WriteBatch batch;
  for (const auto& [k, v] : pending_) batch.Put(k, v);
  // No write-ahead log: a lost cache entry only costs a re-read, and
  // flushing to a table file now means the next open replays nothing
  // (replaying the log was most of a warm scan's time).
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  if (db_->Write(write, &batch).ok()) db_->Flush(rocksdb::FlushOptions());
  pending_.clear();
}

}  // namespace testmap::python
