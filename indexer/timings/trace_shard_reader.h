// The tracer's own per-test timings: its JSONL trace shards
// (tracer/python/testmap_trace, format "testmap-trace" version 1), one
// `test` record per test with `nodeid`, `outcome` and `duration` (setup +
// call + teardown, like pytest-split's).
#pragma once

#include <string>
#include <vector>

#include "indexer/timings/timing_record.h"

namespace testmap::indexer {

// Reads one shard. Outcomes map as pytest's: failed -> kFailed, error ->
// kError, skipped -> kSkipped, passed/xfailed/xpassed -> kPassed. A test
// that crashed its process has no duration: it is read as untimed (like a
// skipped run), so it gets an estimate rather than zero. Throws TimingError
// with the line for a bad JSON line (except a last line cut short by a
// crash, which is ignored as the tracer's own reader does), an unknown
// format or version, a NaN or negative duration.
std::vector<TimingRecord> ParseTraceShard(const std::string& text, const std::string& source);

std::vector<TimingRecord> ReadTraceShard(const std::string& path);

// Whether `text` looks like a trace shard: its first line is a JSON object
// with a string "type".
bool LooksLikeTraceShard(const std::string& text);

}  // namespace testmap::indexer
