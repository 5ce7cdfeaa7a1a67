#include "analyzers/backend/backend_cache.h"

#include <rocksdb/db.h>
#include <rocksdb/options.h>
#include <rocksdb/write_batch.h>

#include <filesystem>

namespace testmap::backend {

BackendCache::BackendCache(rocksdb::DB* db) : db_(db) {}
BackendCache::~BackendCache() = default;

std::unique_ptr<BackendCache> BackendCache::Open(const std::string& dir, std::string* error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  rocksdb::Options options;
  options.create_if_missing = true;
  options.compression = rocksdb::kLZ4Compression;
  options.keep_log_file_num = 1;
  options.info_log_level = rocksdb::WARN_LEVEL;
  rocksdb::DB* db = nullptr;
  rocksdb::Status s = rocksdb::DB::Open(options, dir, &db);
  if (!s.ok()) {
    *error = dir + ": " + s.ToString();
    return nullptr;
  }
  return std::unique_ptr<BackendCache>(new BackendCache(db));
}

std::optional<std::string> BackendCache::Get(std::string_view key) {
  std::string value;
  if (!db_->Get(rocksdb::ReadOptions(), rocksdb::Slice(key.data(), key.size()), &value).ok())
    return std::nullopt;
  return value;
}

void BackendCache::Put(std::string key, std::string value) {
  std::lock_guard<std::mutex> lock(mu_);
  pending_.emplace_back(std::move(key), std::move(value));
}

void BackendCache::Flush() {
  std::lock_guard<std::mutex> lock(mu_);
  if (pending_.empty()) return;
  rocksdb::WriteBatch batch;
  for (const auto& [k, v] : pending_) batch.Put(k, v);
  // As in the test scan's cache: a lost entry only costs a re-read, and a
  // flushed table means the next open replays no log.
  rocksdb::WriteOptions write;
  write.disableWAL = true;
  if (db_->Write(write, &batch).ok()) db_->Flush(rocksdb::FlushOptions());
  pending_.clear();
}

}  // namespace testmap::backend
