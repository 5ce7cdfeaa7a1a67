// `testmap plan --report JUNIT...`: after a run, how the plan's predictions
// compare with what each split really took. Planned and measured are both
// sums of test durations (processes and file overhead left out), so they
// compare like with like.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "mapper/plan/plan.h"
#include "timings/timing_summary.h"

namespace testmap::plan {

struct SplitReport {
  int split = 0;
  std::string group;
  double planned_seconds = 0;
  double measured_seconds = 0;
  int tests = 0;           // tests the plan put there
  int measured_tests = 0;  // of those, how many the reports timed
};

struct PlanReport {
  std::vector<SplitReport> splits;
  double planned_seconds = 0;
  double measured_seconds = 0;
  int unplanned_tests = 0;  // timed in the reports but in no split
};

// Matches measured tests to planned ones by id; a planned file-level item
// (test-times.json) collects every measured test of that file, shared
// equally among its pieces when it was cut.
PlanReport ComparePlanWithRun(const Plan& plan,
                              const std::vector<timings::TimingSummary>& measured);

void RenderReportTable(const PlanReport& report, std::ostream& out);
nlohmann::json ReportToJson(const PlanReport& report);

}  // namespace testmap::plan
