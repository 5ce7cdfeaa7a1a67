#include "mapper/plan/report.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

#include "mapper/plan/estimator.h"
#include "mapper/plan/plan_request.h"
#include "mapper/plan/planner.h"
#include "plan_fixtures.h"
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
  PlanReport report = ComparePlanWithRun(plan, measured, timings::TimingInput{});
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

// Like with like: a report holds sessions, so the plan's time outside them
// (startup_seconds) is left out of the prediction it compares, and the
// error is the session's difference from it over the session.
TEST(Report, ComparesSessionWithSessionAndSaysTheError) {
  PlanOptions options;
  options.splits = 2;
  options.process_overhead = 1;
  options.startup_seconds = 3;
  Plan plan =
      MakePlan({testing::MakeTest("a.py::t1", 2), testing::MakeTest("b.py::t2", 2)}, options);
  ASSERT_EQ(plan.splits.size(), 2u);
  for (const PlannedSplit& s : plan.splits) EXPECT_NEAR(s.seconds, 2 + 1 + 3, 1e-9);
  timings::TimingInput run;
  run.records = timings::ParseJUnitXml(
      "<testsuites><testsuite time=\"3.3\" timestamp=\"2026-12-01T10:00:00+00:00\">"
      "<testcase classname=\"a\" name=\"t1\" time=\"2\"/></testsuite>"
      "<testsuite time=\"2.7\" timestamp=\"2026-12-01T10:00:00+00:00\">"
      "<testcase classname=\"b\" name=\"t2\" time=\"2\"/></testsuite></testsuites>",
      "run.xml", &run.walls);
  PlanReport report = ReportPlan(plan, run, 50);
  EXPECT_DOUBLE_EQ(report.startup_seconds, 3);
  ASSERT_EQ(report.splits.size(), 2u);
  std::map<double, double> error_of_wall;
  for (const SplitReport& r : report.splits) {
    EXPECT_NEAR(r.predicted_seconds, 3, 1e-9);
    EXPECT_EQ(r.processes, 1);
    error_of_wall[r.measured_wall_seconds] = r.ErrorPercent();
  }
  EXPECT_NEAR(error_of_wall.at(3.3), (3.3 - 3) / 3.3 * 100, 1e-9);
  EXPECT_NEAR(error_of_wall.at(2.7), (2.7 - 3) / 2.7 * 100, 1e-9);
  std::ostringstream table;
  RenderReportTable(report, table);
  EXPECT_NE(table.str().find("+9.1%"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("-11.1%"), std::string::npos) << table.str();
  EXPECT_NE(table.str().find("3.00 s outside its sessions"), std::string::npos) << table.str();
  EXPECT_NEAR(ReportToJson(report)["splits"][0]["error_percent"].get<double>(),
              report.splits[0].ErrorPercent(), 1e-12);
}

}  // namespace
}  // namespace testmap::plan
