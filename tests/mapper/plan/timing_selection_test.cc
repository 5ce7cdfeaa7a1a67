#include "mapper/plan/timing_selection.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace testmap::plan {
namespace {

timings::TimingSummary At(const std::string& job, const std::string& config,
                          const std::string& id) {
  timings::TimingSummary s;
  s.id = id;
  s.job = job;
  s.config = config;
  s.timed_runs = 1;
  return s;
}

TEST(TimingSelection, JobThenDefaultLikePyTorch) {
  std::vector<timings::TimingSummary> all = {At("linux", "default", "a"),
                                             At("default", "default", "b"),
                                             At("default", "slow", "c"), At("", "", "junit")};
  auto exact = SelectTimings(all, "linux", "default");
  ASSERT_EQ(exact.target.size(), 2u);  // linux/default + the JUnit test
  EXPECT_EQ(exact.references.size(), 2u);
  EXPECT_TRUE(exact.notes.empty());

  auto fallback = SelectTimings(all, "mac", "slow");
  ASSERT_EQ(fallback.target.size(), 2u);
  EXPECT_EQ(fallback.target[0].id, "c");
  ASSERT_EQ(fallback.notes.size(), 1u);

  try {
    SelectTimings(all, "mac", "nope");
    FAIL();
  } catch (const core::UnknownNameError& e) {
    EXPECT_NE(std::string(e.what()).find("slow"), std::string::npos) << e.what();
  }
}

TEST(TimingSelection, PlainFilesNeedNoJob) {
  auto s = SelectTimings({At("", "", "x"), At("", "", "y")}, "", "");
  EXPECT_EQ(s.target.size(), 2u);
}

}  // namespace
}  // namespace testmap::plan
