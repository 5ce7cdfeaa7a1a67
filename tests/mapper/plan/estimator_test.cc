#include "mapper/plan/estimator.h"

#include <gtest/gtest.h>

#include <map>

#include "core/errors.h"

namespace testmap::plan {
namespace {

timings::TimingSummary Timed(const std::string& id, double seconds, const std::string& job = "",
                             const std::string& config = "") {
  timings::TimingSummary s;
  s.id = id;
  auto colon = id.find("::");
  s.file = id.substr(0, std::min(id.find(".py"), colon));
  if (colon != std::string::npos) {
    auto second = id.find("::", colon + 2);
    if (second != std::string::npos) s.cls = id.substr(colon + 2, second - colon - 2);
  } else {
    s.level = timings::TimingLevel::kFile;
  }
  s.seconds = seconds;
  s.timed_runs = 1;
  s.job = job;
  s.config = config;
  return s;
}

std::map<std::string, PlanTest> ById(const std::vector<PlanTest>& tests) {
  std::map<std::string, PlanTest> out;
  for (const auto& t : tests) out[t.id] = t;
  return out;
}

TEST(Estimator, SiblingsThenClassThenFileThenSuite) {
  TimingSelection sel;
  sel.target = {Timed("test_ops.py::TestCommonCPU::test_out_add_cpu_float32", 4),
                Timed("test_ops.py::TestCommonCPU::test_out_add_cpu_float64", 6),
                Timed("test_ops.py::TestCommonCPU::test_other_cpu", 20),
                Timed("test_nn.py::TestNN::test_a", 1), Timed("test_nn.py::test_free", 3)};
  auto tests = ById(
      BuildPlanTests(sel, {"test_ops.py::TestCommonCPU::test_out_add_cpu_bfloat16",
                           "test_ops.py::TestCommonCPU::test_new_cpu", "test_nn.py::test_other",
                           "test_x.py::test_y", "test_nn.py::TestNN::test_a"}));
  ASSERT_EQ(tests.size(), 5u);
  auto& sibling = tests["test_ops.py::TestCommonCPU::test_out_add_cpu_bfloat16"];
  EXPECT_EQ(sibling.estimate, "siblings");
  EXPECT_DOUBLE_EQ(sibling.seconds, 5);
  auto& by_class = tests["test_ops.py::TestCommonCPU::test_new_cpu"];
  EXPECT_EQ(by_class.estimate, "class");
  EXPECT_DOUBLE_EQ(by_class.seconds, 10);
  auto& by_file = tests["test_nn.py::test_other"];
  EXPECT_EQ(by_file.estimate, "file");
  EXPECT_DOUBLE_EQ(by_file.seconds, 2);
  auto& suite = tests["test_x.py::test_y"];
  EXPECT_EQ(suite.estimate, "suite");
  EXPECT_DOUBLE_EQ(suite.seconds, 4);  // median of 1, 3, 4, 6, 20
  EXPECT_TRUE(tests["test_nn.py::TestNN::test_a"].estimate.empty());
}

TEST(Estimator, OtherConfigsScaledByTheirRelativeSpeed) {
  TimingSelection sel;
  for (int i = 0; i < 6; ++i) {
    std::string f = "test_" + std::to_string(i);
    sel.target.push_back(Timed(f, 10.0 * (i + 1), "fast", "default"));
    sel.references.push_back(Timed(f, 20.0 * (i + 1), "slow", "default"));  // twice as slow
  }
  sel.references.push_back(Timed("test_new", 300, "slow", "default"));
  auto tests = ById(BuildPlanTests(sel, {"test_0", "test_new"}));
  EXPECT_DOUBLE_EQ(tests["test_new"].seconds, 150);
  EXPECT_EQ(tests["test_new"].estimate, "config slow/default");
}

// The hedge: where the two closest references disagree (a file skipped in
// one config runs in the other), the longer estimate is planned; a third,
// less close reference is not consulted.
TEST(Estimator, DisagreeingReferencesAreHedgedByTheLonger) {
  TimingSelection sel;
  for (int i = 0; i < 6; ++i) {
    std::string f = "test_" + std::to_string(i);
    sel.target.push_back(Timed(f, 10.0 * (i + 1), "me", "default"));
    sel.references.push_back(Timed(f, 10.0 * (i + 1), "close", "default"));
    sel.references.push_back(Timed(f, 20.0 * (i + 1) * (i % 2 ? 1.1 : 1), "near", "default"));
    sel.references.push_back(Timed(f, 5.0 * (i + 1) * (i % 2 ? 2 : 1), "far", "default"));
  }
  sel.references.push_back(Timed("test_new", 1, "close", "default"));   // skipped there
  sel.references.push_back(Timed("test_new", 400, "near", "default"));  // ran: x0.5 -> 200
  sel.references.push_back(Timed("test_new", 5000, "far", "default"));  // not consulted
  auto tests = ById(BuildPlanTests(sel, {"test_0", "test_new"}));
  EXPECT_NEAR(tests["test_new"].seconds, 400 * 0.477, 10);  // near's median ratio
  EXPECT_LT(tests["test_new"].seconds, 1000);
  EXPECT_EQ(tests["test_new"].estimate, "configs (2)");
}

TEST(Estimator, SkippedOnlyTestsAreEstimatedNotFree) {
  TimingSelection sel;
  sel.target = {Timed("a.py::T::test_x", 8), Timed("a.py::T::test_y", 0)};
  sel.target[1].timed_runs = 0;
  sel.target[1].skipped_runs = 2;
  auto tests = ById(BuildPlanTests(sel, {}));
  EXPECT_EQ(tests["a.py::T::test_y"].estimate, "class");
  EXPECT_DOUBLE_EQ(tests["a.py::T::test_y"].seconds, 8);
}

TEST(Estimator, NothingTimedIsAnError) {
  TimingSelection sel;
  sel.target = {Timed("a.py::t", 1)};
  sel.target[0].timed_runs = 0;
  EXPECT_THROW(BuildPlanTests(sel, {}), core::InputError);
}

}  // namespace
}  // namespace testmap::plan
