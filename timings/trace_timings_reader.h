// The tracer's own per-test timings, read from its trace shards with the
// one trace reader (core/trace_reader.h): one record per `test` record,
// with `duration` = setup + call + teardown, like pytest-split's.
#pragma once

#include <string>
#include <vector>

#include "timings/process_wall.h"
#include "timings/timing_record.h"

namespace testmap::timings {

// Reads one shard's text. Outcomes map as pytest's: failed -> kFailed,
// error -> kError, skipped -> kSkipped, passed/xfailed/xpassed -> kPassed.
// A test that crashed its process has no duration: it is read as untimed
// (like a skipped run), so it gets an estimate rather than zero. Throws
// core::InputError for anything the trace reader refuses.
//
// With `walls`, each `run` record (one per process; a restarted xdist
// worker appends a new one) with a metadata.start_time is one ProcessWall,
// from that time to the end of its last test, with what its `collection`
// record says it collected; a run of no tests that collected (a traced
// `pytest --collect-only`) is a wall too, to the end of collecting.
std::vector<TimingRecord> ParseTraceShard(const std::string& text, const std::string& source,
                                          std::vector<ProcessWall>* walls = nullptr);

std::vector<TimingRecord> ReadTraceShard(const std::string& path,
                                         std::vector<ProcessWall>* walls = nullptr);

}  // namespace testmap::timings
