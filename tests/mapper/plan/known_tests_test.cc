#include "mapper/plan/known_tests.h"

#include <gtest/gtest.h>

#include "mapper/plan/planner.h"
#include "plan_fixtures.h"

namespace testmap::plan {
namespace {

TEST(KnownTests, PyTorchKeysJoinRepoRootIds) {
  KnownTests known;
  known.Add("test/test_nn.py::TestNN::test_b");
  known.Add("test/test_nn.py::TestNN::test_a");
  known.Add("test/test_nn.py::TestNNDeviceTypeCPU::test_c_cpu");
  known.Add("test/test_nn.py::TestNN::test_a");  // twice is fine
  known.Add("test/test_nn.py");                  // a path is no test
  known.Add("inductor/test_x.py::test_free");
  EXPECT_EQ(known.Of("test_nn"),
            (std::vector<std::string>{"test/test_nn.py::TestNN::test_a",
                                      "test/test_nn.py::TestNN::test_b",
                                      "test/test_nn.py::TestNNDeviceTypeCPU::test_c_cpu"}));
  EXPECT_EQ(known.Of("test/test_nn"), known.Of("test_nn"));
  EXPECT_EQ(known.Of("test_nn", "TestNNDeviceTypeCPU").size(), 1u);
  EXPECT_EQ(known.PathOf("test_nn"), "test/test_nn.py");
  EXPECT_EQ(known.Of("inductor/test_x").size(), 1u);
  EXPECT_TRUE(known.Of("test_ops").empty());
}

PlanTest WholeFile(const std::string& key, double seconds) {
  PlanTest t = testing::MakeTest(key, seconds);
  t.path = key;
  t.file = key;
  return t;
}

// Without equal pieces, a long file timed as a whole becomes runs of its
// known ids, each with its share of the time; unknown, it stays whole.
TEST(KnownTests, LongWholeFilesAreCutIntoTheirIdsOrKeptWhole) {
  KnownTests known;
  for (int i = 0; i < 10; ++i) known.Add("test/test_big.py::T::test_" + std::to_string(i));
  PlanOptions options;
  options.splits = 4;
  options.equal_pieces = false;
  Plan plan = MakePlan(
      {WholeFile("test_big", 2000), WholeFile("test_other", 1000), WholeFile("test_small", 10)},
      options, known);
  int chunks = 0, ids = 0;
  for (const PlanItem& item : plan.items) {
    for (const std::string& label : item.labels) EXPECT_EQ(label.find('#'), std::string::npos);
    if (item.ids_of_whole) {
      ++chunks;
      ids += static_cast<int>(item.labels.size());
      EXPECT_NEAR(item.seconds, 2000 * item.share, 1e-9);
    }
  }
  EXPECT_EQ(chunks, 4);  // ceil(2000 / 600)
  EXPECT_EQ(ids, 10);
  ASSERT_EQ(plan.notes.size(), 1u);
  EXPECT_NE(plan.notes[0].find("test_other.py (1000 s) is timed only as a whole"),
            std::string::npos)
      << plan.notes[0];
  // With pieces allowed the same plan cuts both, PyTorch style.
  options.equal_pieces = true;
  Plan pieces =
      MakePlan({WholeFile("test_big", 2000), WholeFile("test_other", 1000)}, options, known);
  EXPECT_EQ(pieces.items.size(), 6u);
  EXPECT_EQ(pieces.items[0].labels[0], "test_big#1/4");
}

}  // namespace
}  // namespace testmap::plan
