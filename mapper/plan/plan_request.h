// What `testmap plan` is asked, and the one call that answers it: timing
// records (from files, and through the CLI from the index) summarized,
// selected for a job/config, restricted to the tests asked for, estimated
// where untimed, and planned.
#pragma once

#include <string>
#include <vector>

#include "mapper/plan/plan.h"
#include "mapper/plan/report.h"
#include "timings/timing_input.h"

namespace testmap::plan {

struct PlanRequest {
  std::string job, config;       // test-times.json job / build environment and config
  std::string tests_file;        // node ids to plan, one a line ("" = every timed test)
  std::string feature_map_file;  // "path-prefix feature" lines (needs group_by_feature)
  double percentile = 50;        // summary of several runs of a test
  // Node ids known to exist besides those the timings name (--collected, the
  // index's tests): what pytest collects of each file (the cost per test
  // collected, fixed_costs.h), and what a file timed only as a whole is cut
  // into when the plan may not use equal pieces.
  std::vector<std::string> known_ids;
  // Learn options.process_overhead and options.file_overhead from the
  // processes the timing files describe (fixed_costs.h), replacing what the
  // options hold when any process is described; off when the user gave
  // either.
  bool learn_fixed_costs = true;
  // Seconds each process spends outside its pytest session (the
  // interpreter, plugins' imports, its exit): given (--startup), else
  // (negative) learned from the gaps between sessions that ran one after
  // another (fixed_costs.h) when learn_fixed_costs, else 0.
  double startup_seconds = -1;
  PlanOptions options;
};

// Plans `input` (taken by value: the warm-up of each process's first test
// moves to its overhead, warmup.h, before fixed costs are learned). Throws core::InputError for a
// bad tests or feature-map file, core::UsageError for contradicting options or when nothing is
// timed.
Plan PlanFromRecords(timings::TimingInput input, const PlanRequest& request);

// `--report`: `plan` against the runs in `measured`.
PlanReport ReportPlan(const Plan& plan, const timings::TimingInput& measured, double percentile);

// --tests FILE: the node ids to plan, e.g. `pytest --collect-only -q`
// output (its summary line and blank or '#' lines are skipped). A test
// listed twice is an InputError naming both lines.
std::vector<std::string> ReadTestList(const std::string& path);

// --feature-map FILE: "prefix feature" (or "prefix=feature") a line.
std::map<std::string, std::string> ReadFeatureMap(const std::string& path);

}  // namespace testmap::plan
