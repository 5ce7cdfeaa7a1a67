// Which timings describe the job being planned. JUnit XML and
// .test_durations describe "this suite"; test-times.json holds many jobs and
// configs, looked up as PyTorch does: the job (build environment) and
// config, else the "default" job's config. The other jobs and configs are
// kept as references for estimating what the chosen one lacks.
#pragma once

#include <string>
#include <vector>

#include "timings/timing_summary.h"

namespace testmap::plan {

struct TimingSelection {
  std::vector<timings::TimingSummary> target;
  std::vector<timings::TimingSummary> references;  // other job/config pairs
  std::vector<std::string> notes;                  // fallbacks taken, for the user
};

// Throws core::UnknownNameError when test-times data is present but no job
// or config in it matches (the message lists what is available).
TimingSelection SelectTimings(std::vector<timings::TimingSummary> summaries, const std::string& job,
                              const std::string& config);

}  // namespace testmap::plan
