// Several runs of the same test (JUnit files from several CI runs, merged
// .test_durations from shards) summarized into one duration. The median by
// default: one slow run on a loaded machine should not move the plan; a
// higher percentile on request, for teams that plan for the bad day.
#pragma once

#include <string>
#include <vector>

#include "timings/timing_record.h"

namespace testmap::timings {

struct TimingSummary {
  std::string id;  // as spelled in the input
  std::string file;
  std::string cls;
  TimingLevel level = TimingLevel::kTest;
  std::string job;
  std::string config;
  std::string feature;
  // The chosen statistic over runs that were not skipped; meaningful only
  // when timed_runs > 0. A test whose every run was skipped has no duration:
  // it is not a fast test, just an untimed one.
  double seconds = 0;
  int timed_runs = 0;
  int skipped_runs = 0;
  bool rerun = false;  // some run needed retries
};

struct SummaryOptions {
  // 50 = median. Linear interpolation between closest ranks (numpy's
  // default), so the result does not jump with the run count.
  double percentile = 50;
};

// Groups `records` by (job, config, id) and summarizes each group. The
// result is sorted by (job, config, id), whatever the input order.
std::vector<TimingSummary> Summarize(const std::vector<TimingRecord>& records,
                                     const SummaryOptions& options = {});

// The `percentile` (0..100) of `values` (unsorted; copied).
double Percentile(std::vector<double> values, double percentile);

}  // namespace testmap::timings
