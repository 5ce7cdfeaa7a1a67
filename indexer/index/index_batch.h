// Everything one ingestion writes, collected in memory before the index is
// touched, so that parsing errors leave the index as it was and the commit
// (IndexStore::Commit) can write it all in one atomic step.
#pragma once

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "indexer/index/index_layout.h"

namespace testmap::indexer {

struct IndexBatch {
  // Per column family, in insertion order; a later Put of the same key
  // wins (Commit sorts stably and keeps the last).
  std::array<std::vector<std::pair<std::string, std::string>>, kCfCount> puts;

  void Put(Cf cf, std::string key, std::string value) {
    puts[static_cast<int>(cf)].emplace_back(std::move(key), std::move(value));
  }
  size_t size() const {
    size_t n = 0;
    for (const auto& p : puts) n += p.size();
    return n;
  }
};

}  // namespace testmap::indexer
