// The one index a server keeps open, and how it follows later ingests.
//
// `testmap ingest` commits atomically (a new MANIFEST record, new table
// files, or a whole new directory moved in), and a read-only RocksDB open
// sees the state as of its open. So before each request the session
// compares a cheap fingerprint of the directory (the directory itself,
// CURRENT and the MANIFEST it names: three stats and one tiny read) with
// the one it opened, and reopens when it changed. Requests in flight keep
// the index they started with (shared ownership); the next ones see the new
// state. A missing index is not fatal: tools answer that there is none
// until one appears.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "indexer/index_reader.h"
#include "indexer/index_store.h"
#include "mcp/answer_cache.h"
#include "mcp/json_rpc.h"

namespace testmap::mcp {

// One open state of the index.
class OpenIndex {
 public:
  OpenIndex(std::unique_ptr<indexer::IndexStore> store, uint64_t generation);

  const indexer::IndexReader& reader() const { return reader_; }
  const std::string& dir() const { return store_->dir(); }
  // Counts opens in this session: 1 for the first, +1 for each reopen.
  uint64_t generation() const { return generation_; }

  // What an answer drawn from `runs` (run ids; "static" = scan evidence)
  // came from: {index, generation, runs: [{id, torch, tests_git_sha,
  // start_time, ...}], static}. Run summaries are read once per open.
  json Provenance(const std::set<std::string>& runs) const;
  // Every run in the index (for answers over all of it).
  std::set<std::string> AllRuns() const;

  // What several tools derive from this state and share (one admission
  // answers `admit` and `rank_next_ops`, whatever their paging or
  // listing): made by `make` on the first call for `key`, the last
  // kSharedDerivations kept, gone with this state when the index reopens.
  template <typename T>
  std::shared_ptr<const T> Derived(const std::string& key,
                                   const std::function<std::shared_ptr<const T>()>& make) const {
    if (auto kept = derived_.Find(key)) return std::static_pointer_cast<const T>(kept);
    std::shared_ptr<const T> made = make();
    derived_.Put(key, made);
    return made;
  }

 private:
  const json& RunSummary(const std::string& id) const;

  std::unique_ptr<indexer::IndexStore> store_;
  indexer::IndexReader reader_;
  uint64_t generation_;
  mutable std::mutex mu_;
  mutable std::map<std::string, json> runs_;
  mutable AnswerCache<void> derived_;
};

class IndexSession {
 public:
  // `dir` is made absolute: provenance names the index wherever it is read.
  explicit IndexSession(const std::string& dir);

  // The index as it is now: reopened when an ingest changed it since the
  // last call. Throws core::InputError when there is no readable index.
  std::shared_ptr<const OpenIndex> Current();

  const std::string& dir() const { return dir_; }

 private:
  std::string Fingerprint() const;

  std::string dir_;
  std::mutex mu_;
  std::shared_ptr<const OpenIndex> open_;
  std::string fingerprint_;
  uint64_t generation_ = 0;
};

}  // namespace testmap::mcp
