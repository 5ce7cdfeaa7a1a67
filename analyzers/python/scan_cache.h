// A cache of per-file scan results keyed by file content, so a re-scan of
// an unchanged tree skips parsing. Stored in RocksDB (the project's only
// store, through kv_cache.h). The key also covers everything else a result depends on (scanner
// version, torch snapshot, devices), so a stale entry is never served.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/python/kv_cache.h"
#include "analyzers/python/scanned_test.h"
#include "core/content_hash.h"

namespace testmap::python {

class ScanCache {
 public:
  // Opens (creating) the cache at `dir`. Returns null and sets `error` when
  // it cannot, e.g. while another process holds it; scanning then goes on
  // without a cache.
  static std::unique_ptr<ScanCache> Open(const std::string& dir, std::string* error);

  // A result for this content under this context, with paths set to `path`.
  std::optional<FileScan> Get(const core::Hash128& content, const core::Hash128& context,
                              const std::string& path);
  // Stores a result, from any thread; a result for a key already put by
  // this ScanCache (files with the same bytes) is not encoded again.
  void Put(const core::Hash128& content, const core::Hash128& context, const FileScan& scan);
  // Makes what was put durable (KeyValueCache::Flush); safe beside Put.
  void Flush();

 private:
  explicit ScanCache(std::unique_ptr<KeyValueCache> store) : store_(std::move(store)) {}
  std::unique_ptr<KeyValueCache> store_;
  std::mutex mu_;
  std::set<std::string> put_;  // keys put so far
};

// Binary encoding of a FileScan with paths left out (node ids keep only
// what follows `path::`), so that identical files share an entry.
std::string EncodeFileScan(const FileScan& scan);
bool DecodeFileScan(std::string_view bytes, const std::string& path, FileScan* out);

}  // namespace testmap::python
