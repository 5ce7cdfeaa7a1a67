// PyTorch's test-times.json (test-infra's stats/test-times.json), as
// tools/testing/target_determination reads it:
//   {job: {config: {file_without_py: seconds}}}
// and its class-level variant (test-class-times.json):
//   {job: {config: {file_without_py: {InstantiatedClass: seconds}}}}
// "job" is a build environment (or "default"); configs may be "".
#pragma once

#include <string>
#include <vector>

#include "timings/timing_record.h"

namespace testmap::timings {

// Reads every job and config of the file at `path`; records carry job and
// config. File-level records have id == file; class-level ones
// id == "file::Class". Throws core::InputError on bad shape or bad durations.
std::vector<TimingRecord> ReadTestTimes(const std::string& path);

std::vector<TimingRecord> ParseTestTimes(const std::string& text, const std::string& source);

}  // namespace testmap::timings
