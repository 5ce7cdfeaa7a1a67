// What `testmap plan` is asked, and the one call that answers it: timing
// records (from files, and through the CLI from the index) summarized,
// selected for a job/config, restricted to the tests asked for, estimated
// where untimed, and planned.
#pragma once

#include <string>
#include <vector>

#include "mapper/plan/plan.h"
#include "mapper/plan/report.h"
#include "timings/process_wall.h"
#include "timings/timing_record.h"

namespace testmap::plan {

struct PlanRequest {
  std::string job, config;       // test-times.json job / build environment and config
  std::string tests_file;        // node ids to plan, one a line ("" = every timed test)
  std::string feature_map_file;  // "path-prefix feature" lines (needs group_by_feature)
  double percentile = 50;        // summary of several runs of a test
  // Node ids known to exist besides those the timings name (--collected, the
  // index's tests): what a file timed only as a whole is cut into when the
  // plan may not use equal pieces.
  std::vector<std::string> known_ids;
  // Learn options.process_overhead and options.file_overhead from the
  // processes the timing files describe (fixed_costs.h), replacing what the
  // options hold when any process is described; off when the user gave
  // either.
  bool learn_fixed_costs = true;
  // Seconds each process spends before its pytest session starts (the
  // interpreter, plugins' imports): no JUnit suite or trace run sees them,
  // so they are given (--startup) and added to the per-process cost.
  double startup_seconds = 0;
  PlanOptions options;
};

// The timing input: records, and the processes they ran in (for fixed
// costs and the report); ProcessWall record ranges index `records`.
struct TimingInput {
  std::vector<timings::TimingRecord> records;
  std::vector<timings::ProcessWall> walls;
};

// Reads timing files (any format, timing_file_reader.h) into one input.
TimingInput ReadTimingInput(const std::vector<std::string>& paths);

// Plans `input`. Throws core::InputError for a bad tests or feature-map
// file, core::UsageError for contradicting options or when nothing is
// timed.
Plan PlanFromRecords(const TimingInput& input, const PlanRequest& request);
// Records alone (no processes: nothing to learn fixed costs from).
Plan PlanFromRecords(const std::vector<timings::TimingRecord>& records, const PlanRequest& request);

// `--report`: `plan` against the runs in `measured`.
PlanReport ReportPlan(const Plan& plan, const TimingInput& measured, double percentile);

// --tests FILE: the node ids to plan, e.g. `pytest --collect-only -q`
// output (its summary line and blank or '#' lines are skipped). A test
// listed twice is an InputError naming both lines.
std::vector<std::string> ReadTestList(const std::string& path);

// --feature-map FILE: "prefix feature" (or "prefix=feature") a line.
std::map<std::string, std::string> ReadFeatureMap(const std::string& path);

}  // namespace testmap::plan
