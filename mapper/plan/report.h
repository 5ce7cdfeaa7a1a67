// `testmap plan --report JUNIT...`: after a run, how the plan's predictions
// compare with what each split really took. Two comparisons, each like with
// like: the sums of test durations (planned_seconds, measured_seconds), and
// the predicted split time with its fixed costs against the wall time of
// the processes (JUnit suites, trace runs) that ran the split's tests
// (predicted_seconds, measured_wall_seconds).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "mapper/plan/plan.h"
#include "timings/process_wall.h"
#include "timings/timing_summary.h"

namespace testmap::plan {

struct SplitReport {
  int split = 0;
  std::string group;
  double planned_seconds = 0;
  double measured_seconds = 0;
  int tests = 0;                 // tests the plan put there
  int measured_tests = 0;        // of those, how many the reports timed
  double predicted_seconds = 0;  // the plan's split time, fixed costs included
  // Wall time of the processes that ran this split (most of their tests are
  // the split's); < 0 when the reports hold no process for it.
  double measured_wall_seconds = -1;
  int processes = 0;
};

struct PlanReport {
  std::vector<SplitReport> splits;
  double planned_seconds = 0;
  double measured_seconds = 0;
  int unplanned_tests = 0;  // timed in the reports but in no split
};

// Matches measured tests to planned ones by id; a planned file-level item
// (test-times.json) collects every measured test of that file, shared
// among its pieces when it was cut (an id chunk takes its own ids). Each
// process of `run` goes to the split most of its tests belong to.
struct TimingInput;
PlanReport ComparePlanWithRun(const Plan& plan, const std::vector<timings::TimingSummary>& measured,
                              const TimingInput& run);

void RenderReportTable(const PlanReport& report, std::ostream& out);
nlohmann::json ReportToJson(const PlanReport& report);

}  // namespace testmap::plan
