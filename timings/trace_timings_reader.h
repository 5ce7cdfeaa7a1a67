// The tracer's own per-test timings, read from its trace shards with the
// one trace reader (core/trace_reader.h): one record per `test` record,
// with `duration` = setup + call + teardown, like pytest-split's.
#pragma once

#include <string>
#include <vector>

#include "timings/timing_record.h"

namespace testmap::timings {

// Reads one shard's text. Outcomes map as pytest's: failed -> kFailed,
// error -> kError, skipped -> kSkipped, passed/xfailed/xpassed -> kPassed.
// A test that crashed its process has no duration: it is read as untimed
// (like a skipped run), so it gets an estimate rather than zero. Throws
// core::InputError for anything the trace reader refuses.
std::vector<TimingRecord> ParseTraceShard(const std::string& text, const std::string& source);

std::vector<TimingRecord> ReadTraceShard(const std::string& path);

}  // namespace testmap::timings
