// The index's outcomes as timing records, for `testmap plan --index`: one
// record per test and run, and each run's wall (timings::TraceRunWall),
// exactly as the trace shard reader (timings/trace_timings_reader.h) would
// read the shards they came from, so a plan from the index equals a plan
// from the shards, fixed costs included. Then the records of ingested
// timing files, as their readers produced them.
#pragma once

#include <vector>

#include "indexer/index_store.h"
#include "timings/timing_input.h"

namespace testmap::indexer {

timings::TimingInput ReadIndexTimings(const IndexStore& store);

// The same, appended to a plan's timing input (cli/plan_command.cc and the
// MCP plan tool read files and the index through this one path).
void AppendIndexTimings(const IndexStore& store, timings::TimingInput& input);

}  // namespace testmap::indexer
