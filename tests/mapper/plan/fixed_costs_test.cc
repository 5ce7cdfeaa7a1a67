#include "mapper/plan/fixed_costs.h"

#include <gtest/gtest.h>

#include "mapper/plan/planner.h"
#include "plan_fixtures.h"

namespace testmap::plan {
namespace {

timings::ProcessWall Wall(int files, double tests, double wall) {
  timings::ProcessWall w;
  w.files = files;
  w.tests = 10;
  w.test_seconds = tests;
  w.wall_seconds = wall;
  return w;
}

TEST(FixedCosts, PerProcessAndPerFileFromProcessesOfDifferentSizes) {
  // overhead = 2 + 0.5 x files, exactly.
  FixedCosts c = LearnFixedCosts({Wall(1, 10, 12.5), Wall(3, 20, 23.5), Wall(8, 5, 11)});
  EXPECT_NEAR(c.per_process, 2, 1e-9);
  EXPECT_NEAR(c.per_file, 0.5, 1e-9);
  EXPECT_EQ(c.processes, 3);
}

TEST(FixedCosts, OneSizeOfProcessIsAllPerProcess) {
  FixedCosts c = LearnFixedCosts({Wall(4, 10, 13), Wall(4, 10, 15)});
  EXPECT_DOUBLE_EQ(c.per_process, 4);
  EXPECT_DOUBLE_EQ(c.per_file, 0);
  FixedCosts none = LearnFixedCosts({});
  EXPECT_EQ(none.processes, 0);
  EXPECT_DOUBLE_EQ(none.per_process + none.per_file, 0);
}

TEST(FixedCosts, NeverNegative) {
  // More files, less overhead: no per-file cost to see.
  FixedCosts c = LearnFixedCosts({Wall(1, 10, 14), Wall(5, 10, 12)});
  EXPECT_DOUBLE_EQ(c.per_file, 0);
  EXPECT_DOUBLE_EQ(c.per_process, 3);
  // Overhead that grows faster than files would put the intercept below 0.
  FixedCosts d = LearnFixedCosts({Wall(1, 10, 10.1), Wall(5, 10, 15)});
  EXPECT_DOUBLE_EQ(d.per_process, 0);
  EXPECT_NEAR(d.per_file, 5.1 / 6, 1e-9);
  // A suite whose tests add up to more than its time (rounding) costs 0.
  EXPECT_DOUBLE_EQ(Wall(1, 10, 9.99).Overhead(), 0);
}

// The per-process cost changes no placement, only what is predicted: each
// process that runs something pays it once.
TEST(FixedCosts, PlannedSplitsPayThem) {
  std::vector<PlanTest> tests;
  for (int i = 0; i < 6; ++i)
    tests.push_back(
        testing::MakeTest("f" + std::to_string(i % 3) + ".py::t" + std::to_string(i), 1));
  PlanOptions options;
  options.splits = 3;
  Plan bare = MakePlan(tests, options);
  options.process_overhead = 2;
  options.file_overhead = 0.5;
  Plan paid = MakePlan(tests, options);
  ASSERT_EQ(paid.splits.size(), 3u);
  for (const PlannedSplit& s : paid.splits) {
    // Two tests a split; at best both from one file: 2 + 0.5 + 2.
    EXPECT_NEAR(s.seconds, 4.5, 1e-9) << s.index;
  }
  EXPECT_NEAR(bare.makespan, 2, 1e-9);
  EXPECT_NEAR(paid.lower_bound, 2 + 0.5 * 3 / 3 + 2, 1e-9);
}

}  // namespace
}  // namespace testmap::plan
