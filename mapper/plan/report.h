// `testmap plan --report JUNIT...`: after a run, how the plan's predictions
// compare with what each split really took. Two comparisons, each like with
// like: the sums of test durations (planned_seconds, measured_seconds), and
// the predicted session time of the split, its fixed costs inside the
// session included, against the session wall time of the processes (JUnit
// suites, trace runs) that ran the split's tests (predicted_seconds,
// measured_wall_seconds). A report holds no process's time outside its
// session, so the start-up the plan adds to each split (startup_seconds) is
// left out of predicted_seconds: the split's whole predicted time is
// predicted_seconds + startup_seconds.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "mapper/plan/plan.h"
#include "timings/timing_input.h"
#include "timings/timing_summary.h"

namespace testmap::plan {

struct SplitReport {
  int split = 0;
  std::string group;
  double planned_seconds = 0;
  double measured_seconds = 0;
  int tests = 0;                 // tests the plan put there
  int measured_tests = 0;        // of those, how many the reports timed
  double predicted_seconds = 0;  // the plan's session time, its fixed costs included
  // Wall time of the processes that ran this split (most of their tests are
  // the split's); < 0 when the reports hold no process for it.
  double measured_wall_seconds = -1;
  int processes = 0;
  // (measured - predicted) / measured x 100 of the session times; 0 without
  // a measured one.
  double ErrorPercent() const;
};

struct PlanReport {
  std::vector<SplitReport> splits;
  double planned_seconds = 0;
  double measured_seconds = 0;
  int unplanned_tests = 0;     // timed in the reports but in no split
  double startup_seconds = 0;  // what the plan adds per split outside the sessions
};

// Matches measured tests to planned ones by id; a planned file-level item
// (test-times.json) collects every measured test of that file, shared
// among its pieces when it was cut (an id chunk takes its own ids). Each
// process of `run` goes to the split most of its tests belong to.
PlanReport ComparePlanWithRun(const Plan& plan, const std::vector<timings::TimingSummary>& measured,
                              const timings::TimingInput& run);

void RenderReportTable(const PlanReport& report, std::ostream& out);
nlohmann::json ReportToJson(const PlanReport& report);

}  // namespace testmap::plan
