// Everything one ingestion writes, collected in memory before the index is
// touched, so that parsing errors leave the index as it was and the commit
// (IndexStore::Commit) can write it all in one atomic step.
//
// Keys and values live in one arena of large chunks rather than in millions
// of std::strings: a full PyTorch trace makes millions of keys, and their
// allocation and freeing would otherwise cost as much as the sort.
#pragma once

#include <array>
#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "indexer/index_layout.h"

namespace testmap::indexer {

class IndexBatch {
 public:
  struct Entry {
    std::string_view key, value;
  };

  // Copies `key` and `value`. A later Put of the same key wins.
  void Put(Cf cf, std::string_view key, std::string_view value) {
    entries_[static_cast<int>(cf)].push_back({Copy(key), Copy(value)});
  }
  // Keys a producer will write (for summaries).
  void AddProducedCount(size_t n) { produced_ += n; }

  // Copies `s` into the batch's arena (for values referenced by several keys).
  std::string_view Store(std::string_view s) { return Copy(s); }
  // Declares that the puts of `cf` come in strictly increasing key order,
  // so the commit need not sort them (it still checks, and sorts if not).
  void SetPresorted(Cf cf) { presorted_[static_cast<int>(cf)] = true; }

  // Instead of puts: `producer` calls its sink with every key of `cf` in
  // strictly increasing order. It runs during the commit, on the column
  // family's own thread, straight into the SST file: millions of edge keys
  // are then never stored twice, and both edge directions build in
  // parallel. `producer` must stay callable until the commit returns.
  // With `after_others`, it runs once every other column family's file is
  // written, so it can write what their producers counted (the counters).
  // An exception it throws stops the commit, and the commit rethrows it.
  using Sink = std::function<void(std::string_view key, std::string_view value)>;
  void SetProducer(Cf cf, std::function<void(const Sink&)> producer, bool after_others = false) {
    producers_[static_cast<int>(cf)] = std::move(producer);
    after_others_[static_cast<int>(cf)] = after_others;
  }
  const std::function<void(const Sink&)>& producer(int cf) const { return producers_[cf]; }
  bool after_others(int cf) const { return after_others_[cf]; }

  const std::vector<Entry>& entries(int cf) const { return entries_[cf]; }
  bool presorted(int cf) const { return presorted_[cf]; }
  size_t size() const {
    size_t n = 0;
    for (const auto& e : entries_) n += e.size();
    return n + produced_;
  }

 private:
  std::string_view Copy(std::string_view s) {
    if (s.size() > kChunk - used_ || chunks_.empty()) {
      size_t size = std::max(kChunk, s.size());
      chunks_.push_back(std::make_unique<char[]>(size));
      used_ = size == kChunk ? 0 : kChunk;  // an oversized chunk is full at once
      if (size != kChunk) {
        std::copy(s.begin(), s.end(), chunks_.back().get());
        return {chunks_.back().get(), s.size()};
      }
    }
    char* at = chunks_.back().get() + used_;
    std::copy(s.begin(), s.end(), at);
    used_ += s.size();
    return {at, s.size()};
  }

  static constexpr size_t kChunk = 8 << 20;
  std::vector<std::unique_ptr<char[]>> chunks_;
  size_t used_ = 0;
  size_t produced_ = 0;
  std::array<std::vector<Entry>, kCfCount> entries_;
  std::array<bool, kCfCount> presorted_{};
  std::array<bool, kCfCount> after_others_{};
  std::array<std::function<void(const Sink&)>, kCfCount> producers_;
};

}  // namespace testmap::indexer
