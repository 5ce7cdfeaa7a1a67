// What `testmap plan` is asked, and the one call that answers it: timing
// records (from files, and through the CLI from the index) summarized,
// selected for a job/config, restricted to the tests asked for, estimated
// where untimed, and planned.
#pragma once

#include <string>
#include <vector>

#include "mapper/plan/plan.h"
#include "mapper/plan/report.h"
#include "timings/timing_record.h"

namespace testmap::plan {

struct PlanRequest {
  std::string job, config;       // test-times.json job / build environment and config
  std::string tests_file;        // node ids to plan, one a line ("" = every timed test)
  std::string feature_map_file;  // "path-prefix feature" lines (needs group_by_feature)
  double percentile = 50;        // summary of several runs of a test
  PlanOptions options;
};

// Plans `records`. Throws core::InputError for a bad tests or feature-map
// file, core::UsageError for contradicting options or when nothing is
// timed.
Plan PlanFromRecords(const std::vector<timings::TimingRecord>& records, const PlanRequest& request);

// `--report`: `plan` against the runs in `measured`.
PlanReport ReportPlan(const Plan& plan, const std::vector<timings::TimingRecord>& measured,
                      double percentile);

// --tests FILE: the node ids to plan, e.g. `pytest --collect-only -q`
// output (its summary line and blank or '#' lines are skipped). A test
// listed twice is an InputError naming both lines.
std::vector<std::string> ReadTestList(const std::string& path);

// --feature-map FILE: "prefix feature" (or "prefix=feature") a line.
std::map<std::string, std::string> ReadFeatureMap(const std::string& path);

}  // namespace testmap::plan
