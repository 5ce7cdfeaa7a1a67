#include "mapper/plan/planner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "mapper/plan/render.h"
#include "plan_fixtures.h"
#include "timings/pytorch_times_reader.h"

namespace testmap::plan {
namespace {

using testing::MakeTest;

std::string NodeIds(const Plan& plan) {
  std::ostringstream out;
  for (const auto& s : plan.splits) {
    out << "== " << s.index << "\n";
    RenderNodeIds(plan, s.index, out);
  }
  return out.str();
}

TEST(Planner, ShuffledRealInputGivesTheIdenticalPlan) {
  if (!testing::HaveRealTestTimes()) GTEST_SKIP();
  auto records = timings::ReadTestTimes(testing::RealTestTimesPath());
  PlanOptions options;
  options.splits = 8;
  options.granularity = Granularity::kFile;
  auto plan_of = [&](const std::vector<timings::TimingRecord>& r) {
    auto selection = SelectTimings(timings::Summarize(r), "linux-jammy-py3.10-gcc11", "default");
    return MakePlan(BuildPlanTests(selection, {}), options);
  };
  const std::string expected = NodeIds(plan_of(records));
  for (unsigned seed : {1u, 2u, 3u}) {
    std::shuffle(records.begin(), records.end(), std::mt19937(seed));
    EXPECT_EQ(NodeIds(plan_of(records)), expected) << "seed " << seed;
  }
}

TEST(Planner, ShuffledTestsGiveTheIdenticalPlanAtScale) {
  std::mt19937 rng(5);
  std::lognormal_distribution<double> heavy(0, 1.5);
  std::vector<PlanTest> tests;
  for (int f = 0; f < 300; ++f) {
    for (int t = 0; t < 40; ++t) {
      tests.push_back(MakeTest(
          "test_f" + std::to_string(f) + ".py::TestC::test_" + std::to_string(t), heavy(rng)));
    }
  }
  PlanOptions options;
  options.splits = 13;
  const std::string expected = NodeIds(MakePlan(tests, options));
  std::shuffle(tests.begin(), tests.end(), rng);
  EXPECT_EQ(NodeIds(MakePlan(tests, options)), expected);
}

TEST(Planner, RealTimingsAreWithinOnePercentOfTheLowerBound) {
  if (!testing::HaveRealTestTimes()) GTEST_SKIP();
  PlanOptions options;
  options.granularity = Granularity::kFile;
  for (int splits : {4, 8, 16}) {
    options.splits = splits;
    Plan plan = MakePlan(testing::RealPlanTests("linux-jammy-py3.10-gcc11", "default"), options);
    EXPECT_EQ(plan.splits.size(), static_cast<size_t>(splits));
    EXPECT_LE(plan.makespan / plan.lower_bound, 1.01) << splits;
    // Files over 600 s come in equal pieces, PyTorch style.
    for (const auto& item : plan.items) EXPECT_LE(item.seconds, 600 + 1e-6) << item.labels[0];
  }
}

TEST(Planner, MaxMinutesPicksTheFewestSplitsThatFit) {
  if (!testing::HaveRealTestTimes()) GTEST_SKIP();
  PlanOptions options;
  options.granularity = Granularity::kFile;
  options.max_minutes = 45;
  Plan plan = MakePlan(testing::RealPlanTests("linux-jammy-py3.10-gcc11", "default"), options);
  ASSERT_GT(plan.limit_seconds, 0);
  EXPECT_DOUBLE_EQ(plan.limit_seconds, 45 * 60 * 0.9);
  EXPECT_LE(plan.makespan, plan.limit_seconds);
  // One split fewer cannot fit: its own plan goes over the limit.
  PlanOptions fewer = options;
  fewer.max_minutes = 0;
  fewer.splits = static_cast<int>(plan.splits.size()) - 1;
  fewer.cut_seconds = plan.options.cut_seconds;
  Plan smaller = MakePlan(testing::RealPlanTests("linux-jammy-py3.10-gcc11", "default"), fewer);
  EXPECT_GT(smaller.makespan, plan.limit_seconds);
}

TEST(Planner, ItemTooLongForAnySplitIsAClearError) {
  PlanOptions options;
  options.max_minutes = 10;
  options.keep_together = KeepTogether::kFile;
  try {
    MakePlan({MakeTest("big.py::T::a", 400), MakeTest("big.py::T::b", 400),
              MakeTest("small.py::T::c", 5)},
             options);
    FAIL();
  } catch (const PlanError& e) {
    EXPECT_NE(std::string(e.what()).find("big.py"), std::string::npos) << e.what();
  }
  // Without keep-together the file is cut by test and fits.
  options.keep_together = KeepTogether::kNone;
  options.granularity = Granularity::kFile;
  Plan plan = MakePlan(
      {MakeTest("big.py::T::a", 400), MakeTest("big.py::T::b", 400), MakeTest("small.py::T::c", 5)},
      options);
  EXPECT_EQ(plan.splits.size(), 2u);
}

TEST(Planner, KeepTogetherKeepsFilesWhole) {
  std::vector<PlanTest> tests;
  for (int f = 0; f < 6; ++f) {
    for (int t = 0; t < 5; ++t)
      tests.push_back(MakeTest("f" + std::to_string(f) + ".py::T::t" + std::to_string(t), 1 + t));
  }
  PlanOptions options;
  options.splits = 3;
  options.keep_together = KeepTogether::kFile;
  Plan plan = MakePlan(tests, options);
  std::map<std::string, std::set<int>> splits_of_file;
  for (const auto& s : plan.splits) {
    for (int i : s.items) {
      for (int t : plan.items[i].tests) splits_of_file[plan.tests[t].file].insert(s.index);
    }
  }
  for (const auto& [file, splits] : splits_of_file) EXPECT_EQ(splits.size(), 1u) << file;
  // Listed test by test (granularity test), placed file by file.
  EXPECT_EQ(plan.items.size(), 6u);
  EXPECT_EQ(plan.items[0].labels.size(), 5u);
  EXPECT_DOUBLE_EQ(plan.makespan, 30);
}

TEST(Planner, FeatureGroupsArePlannedWithinThemselves) {
  std::vector<PlanTest> tests;
  for (int i = 0; i < 30; ++i)
    tests.push_back(MakeTest("linalg/test_a.py::T::t" + std::to_string(i), 10));
  for (int i = 0; i < 10; ++i)
    tests.push_back(MakeTest("nn/test_b.py::T::t" + std::to_string(i), 10));
  PlanOptions options;
  options.splits = 4;
  options.group_by_feature = true;
  options.feature_map = {{"linalg/", "linalg"}, {"nn/", "nn"}};
  Plan plan = MakePlan(tests, options);
  ASSERT_EQ(plan.splits.size(), 4u);
  int linalg_splits = 0;
  for (const auto& s : plan.splits) {
    for (int i : s.items) EXPECT_EQ(plan.items[i].group, s.group);
    linalg_splits += s.group == "linalg";
  }
  EXPECT_EQ(linalg_splits, 3);  // 300 s vs 100 s: three to one
  EXPECT_DOUBLE_EQ(plan.makespan, 100);
}

TEST(Planner, ProcessesShareASplit) {
  std::vector<PlanTest> tests;
  for (int i = 0; i < 16; ++i) tests.push_back(MakeTest("t.py::test_" + std::to_string(i), 10));
  PlanOptions options;
  options.splits = 2;
  options.procs = 2;
  Plan plan = MakePlan(tests, options);
  EXPECT_DOUBLE_EQ(plan.makespan, 40);  // 160 s over 2 splits x 2 processes
  EXPECT_DOUBLE_EQ(plan.lower_bound, 40);
  ASSERT_EQ(plan.splits[0].proc_seconds.size(), 2u);
}

TEST(Planner, FewerItemsThanSplitsSaysSo) {
  PlanOptions options;
  options.splits = 3;
  Plan plan = MakePlan({MakeTest("a.py::t", 1), MakeTest("b.py::t", 2)}, options);
  ASSERT_EQ(plan.splits.size(), 3u);
  EXPECT_TRUE(plan.splits[2].items.empty());
  ASSERT_FALSE(plan.notes.empty());
}

TEST(Planner, DuplicateIdsAreRejected) {
  PlanOptions options;
  options.splits = 2;
  EXPECT_THROW(MakePlan({MakeTest("a.py::t", 1), MakeTest("a.py::t", 2)}, options), PlanError);
}

}  // namespace
}  // namespace testmap::plan
