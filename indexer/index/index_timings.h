// The index's outcomes as timing records, for `testmap plan --index`: one
// record per test and run, exactly as the trace shard reader
// (indexer/timings/trace_shard_reader.h) would read the shards they came
// from, so a plan from the index equals a plan from the shards.
#pragma once

#include <vector>

#include "indexer/index/index_store.h"
#include "indexer/timings/timing_record.h"

namespace testmap::indexer {

std::vector<TimingRecord> ReadIndexTimings(const IndexStore& store);

}  // namespace testmap::indexer
