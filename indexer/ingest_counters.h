// How one ingest changes the index's counters (index_counters.h): from
// the counters before it, what its batch writes, and as few reads of the
// old keys as that needs. Keys of a run the index did not hold yet are new
// by construction (every key of a run is written with its run record, and
// `index verify` checks that every edge and outcome names a run), so an
// ingest of new shards reads nothing for them; only re-ingested runs,
// static edges and the tests a batch touches are looked up, in key order.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "indexer/index_batch.h"
#include "indexer/index_counters.h"
#include "indexer/index_store.h"

namespace testmap::indexer {

class IngestCounters {
 public:
  // Reads the counters before the ingest (counting once when the index
  // keeps none).
  explicit IngestCounters(const IndexStore& store);

  // Whether keys of run `id` may already be in the index: its run record
  // is, or it is the static run. Call before the commit.
  bool RunMayExist(std::string_view run_id) const;

  // The puts of `batch` (tests, generic links, outcomes, runs); the tests
  // `traced` through non-static edges; the operators (PACKET \0 OVERLOAD)
  // of its edges. Call once, before Finish; it may run while the op_tests
  // producer calls AddEdge (they change different counters).
  void AddBatch(const IndexBatch& batch, const std::vector<std::string_view>& traced,
                const std::vector<std::string_view>& op_keys);

  // One op_tests key the commit writes (duplicates already resolved), in
  // key order, `may_exist` when its run may (RunMayExist): counts the edge
  // unless the index held it, and takes back the evidence of the value it
  // replaces. Called from the op_tests producer's thread during the commit.
  void AddEdge(std::string_view key, bool may_exist);
  // The value of every edge the commit writes, once per edge. Called from
  // the test_ops producer's thread (which writes the same edges), so that
  // the two directions share the counting.
  void AddWrittenValue(std::string_view value) { ++new_values_[{value.data(), value.size()}]; }

  // The counters after the commit. Called once every AddEdge and
  // AddWrittenValue is done.
  const IndexCounters& Finish();

 private:
  const IndexStore& store_;
  IndexCounters counters_;
  bool empty_before_;                                       // nothing to look up
  mutable std::unordered_map<std::string, bool> old_runs_;  // run id -> in the index
  std::unique_ptr<IndexCursor> old_edges_;
  // Changes of edges_by_evidence, kept apart from its map: a handful of
  // kinds, counted millions of times.
  std::vector<std::pair<std::string, int64_t>> evidence_;
  void CountEvidence(std::string_view value, int64_t by);
  // The values of the edges written, by address and size: millions of
  // edges share a few thousand values (interned, trace_input.h), each
  // parsed once (Finish).
  struct ValueHash {
    size_t operator()(const std::pair<const char*, size_t>& v) const {
      return std::hash<const char*>{}(v.first) ^ (v.second * 0x9e3779b97f4a7c15ull);
    }
  };
  std::unordered_map<std::pair<const char*, size_t>, uint64_t, ValueHash> new_values_;
};

}  // namespace testmap::indexer
