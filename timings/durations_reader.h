// pytest-split's `.test_durations`: a flat JSON object {nodeid: seconds},
// each duration setup + call + teardown. Older pytest-split versions wrote a
// list of [nodeid, seconds] pairs; both are read.
#pragma once

#include <string>
#include <vector>

#include "timings/timing_record.h"

namespace testmap::timings {

// Reads the file at `path`. Throws core::InputError (file and line) on an empty
// file, invalid JSON, a duplicate node id, a non-numeric, NaN or negative
// duration.
std::vector<TimingRecord> ReadTestDurations(const std::string& path);

// Same, from `text` already in memory; `source` names it in errors.
std::vector<TimingRecord> ParseTestDurations(const std::string& text, const std::string& source);

}  // namespace testmap::timings
