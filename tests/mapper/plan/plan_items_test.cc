#include "mapper/plan/plan_items.h"

#include <gtest/gtest.h>

#include "plan_fixtures.h"

namespace testmap::plan {
namespace {

using testing::MakeTest;

Plan WithTests(std::vector<PlanTest> tests, Granularity g) {
  Plan plan;
  plan.options.granularity = g;
  plan.tests = std::move(tests);
  return plan;
}

TEST(PlanItems, GranularityChoosesTheListedUnit) {
  std::vector<PlanTest> tests = {MakeTest("a.py::TestA::t1", 1), MakeTest("a.py::TestA::t2", 2),
                                 MakeTest("a.py::free", 3), MakeTest("b.py::TestB::t", 4)};
  Plan file = WithTests(tests, Granularity::kFile);
  BuildPlanItems(file, KnownTests());
  ASSERT_EQ(file.items.size(), 2u);
  EXPECT_EQ(file.items[0].labels, std::vector<std::string>{"a.py"});
  EXPECT_DOUBLE_EQ(file.items[0].seconds, 6);

  Plan cls = WithTests(tests, Granularity::kClass);
  BuildPlanItems(cls, KnownTests());
  // Module-level functions stay tests: listing a.py would run TestA too.
  std::vector<std::string> labels;
  for (const auto& i : cls.items) labels.push_back(i.labels[0]);
  EXPECT_EQ(labels, (std::vector<std::string>{"a.py::TestA", "a.py::free", "b.py::TestB"}));
}

TEST(PlanItems, LongFilesAreCutByTestOrIntoEqualPieces) {
  std::vector<PlanTest> tests;
  for (int i = 0; i < 10; ++i) tests.push_back(MakeTest("big.py::T::t" + std::to_string(i), 100));
  tests.push_back(MakeTest("test_whole", 1500));  // file-level timing (test-times.json)
  Plan plan = WithTests(tests, Granularity::kFile);
  plan.options.cut_seconds = 600;
  BuildPlanItems(plan, KnownTests());
  int big_chunks = 0, pieces = 0;
  for (const auto& item : plan.items) {
    EXPECT_LE(item.seconds, 600);
    if (item.file == "big") {
      ++big_chunks;
      EXPECT_EQ(item.labels.size(), item.tests.size());
    }
    if (item.pieces) {
      ++pieces;
      EXPECT_DOUBLE_EQ(item.seconds, 500);
      EXPECT_EQ(item.labels[0], "test_whole#" + std::to_string(item.piece) + "/3");
    }
  }
  EXPECT_EQ(big_chunks, 2);  // 1000 s in ceil(1000/600) = 2 chunks of tests
  EXPECT_EQ(pieces, 3);
}

TEST(PlanItems, FeatureMapLongestPrefixWins) {
  PlanOptions options;
  options.group_by_feature = true;
  options.feature_map = {{"inductor/", "compile"}, {"inductor/test_flex", "attention"}};
  EXPECT_EQ(FeatureOf(MakeTest("inductor/test_flex_attention.py::T::t", 1), options), "attention");
  EXPECT_EQ(FeatureOf(MakeTest("inductor/test_other.py::T::t", 1), options), "compile");
  PlanTest t = MakeTest("test_nn.py::T::t", 1);
  EXPECT_EQ(FeatureOf(t, options), "other");
  t.feature = "nn";  // from a JUnit <property name="feature">
  EXPECT_EQ(FeatureOf(t, options), "nn");
}

}  // namespace
}  // namespace testmap::plan
