#include "timings/timing_summary.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tests/support/temp_dir.h"
#include "timings/junit_reader.h"

namespace testmap::timings {
namespace {

std::string DataFile(const std::string& name) {
  return testing::SourcePath("tests/timings/data/" + name);
}

TimingRecord Observed(const std::string& id, double seconds, Outcome outcome = Outcome::kPassed) {
  TimingRecord r;
  r.id = id;
  r.file = "f";
  r.seconds = seconds;
  r.outcome = outcome;
  return r;
}

TEST(TimingSummary, MedianOfRunsIgnoresOneSlowOutlier) {
  auto s = Summarize({Observed("t", 1), Observed("t", 100), Observed("t", 2)});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_DOUBLE_EQ(s[0].seconds, 2);
  EXPECT_EQ(s[0].timed_runs, 3);
}

TEST(TimingSummary, PercentileOnRequest) {
  SummaryOptions p90;
  p90.percentile = 90;
  // numpy.percentile([1,2,3,4,5], 90) == 4.6
  auto s = Summarize(
      {Observed("t", 5), Observed("t", 1), Observed("t", 3), Observed("t", 2), Observed("t", 4)},
      p90);
  EXPECT_NEAR(s[0].seconds, 4.6, 1e-12);
}

TEST(TimingSummary, SkippedRunsAreNotFastRuns) {
  auto s = Summarize(
      {Observed("t", 0, Outcome::kSkipped), Observed("t", 4), Observed("u", 0, Outcome::kSkipped)});
  ASSERT_EQ(s.size(), 2u);
  EXPECT_DOUBLE_EQ(s[0].seconds, 4);  // not the median of {0, 4}
  EXPECT_EQ(s[0].skipped_runs, 1);
  EXPECT_EQ(s[1].timed_runs, 0);  // untimed, not instant
}

TEST(TimingSummary, OrderOfRunsDoesNotMatter) {
  auto a = ReadJUnitXml(DataFile("pytest_xunit1.xml"));
  auto b = ReadJUnitXml(DataFile("pytest_xunit2.xml"));
  std::vector<TimingRecord> all = a;
  all.insert(all.end(), b.begin(), b.end());
  auto expected = Summarize(all);
  std::shuffle(all.begin(), all.end(), std::mt19937(7));
  auto shuffled = Summarize(all);
  ASSERT_EQ(expected.size(), shuffled.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(expected[i].id, shuffled[i].id);
    EXPECT_DOUBLE_EQ(expected[i].seconds, shuffled[i].seconds);
    EXPECT_EQ(expected[i].timed_runs, shuffled[i].timed_runs);
  }
}

}  // namespace
}  // namespace testmap::timings
