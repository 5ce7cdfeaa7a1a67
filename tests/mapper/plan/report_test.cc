#include "mapper/plan/report.h"

#include <gtest/gtest.h>

#include "mapper/plan/estimator.h"
#include "mapper/plan/plan_request.h"
#include "mapper/plan/planner.h"
#include "timings/junit_reader.h"

namespace testmap::plan {
namespace {

std::string Fixture(const char* name) {
  return std::string(TESTMAP_SOURCE_DIR) + "/tests/timings/data/" + name;
}

// Plan from one real pytest run, measure with the other: every timed test is
// matched, and planned and measured agree within the runs' jitter.
TEST(Report, PlannedVersusMeasuredOnRealRuns) {
  auto planned = timings::Summarize(timings::ReadJUnitXml(Fixture("pytest_xunit1.xml")));
  PlanOptions options;
  options.splits = 2;
  Plan plan = MakePlan(BuildPlanTests(SelectTimings(planned, "", ""), {}), options);
  auto measured = timings::Summarize(timings::ReadJUnitXml(Fixture("pytest_xunit2.xml")));
  PlanReport report = ComparePlanWithRun(plan, measured, TimingInput{});
  ASSERT_EQ(report.splits.size(), 2u);
  int matched = 0;
  for (const auto& s : report.splits) matched += s.measured_tests;
  EXPECT_EQ(matched, 7);  // 8 tests, the skipped one has no measured time
  EXPECT_EQ(report.unplanned_tests, 0);
  // The skipped test was planned with an estimate (its class mean) and
  // measured as nothing; the timed rest agrees within the runs' jitter.
  EXPECT_GT(plan.estimated_seconds, 0);
  EXPECT_NEAR(report.measured_seconds, report.planned_seconds - plan.estimated_seconds, 0.05);
}

}  // namespace
}  // namespace testmap::plan
