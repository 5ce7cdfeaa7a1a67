#include "core/closest_names.h"

#include <gtest/gtest.h>

namespace testmap::core {
namespace {

TEST(ClosestNames, EditDistance) {
  EXPECT_EQ(EditDistance("cdua", "cuda"), 1u);  // a swap is one typo
  EXPECT_EQ(EditDistance("cdua", "cpu"), 2u);
  EXPECT_EQ(EditDistance("", "abc"), 3u);
  EXPECT_EQ(EditDistance("float32", "float32"), 0u);
}

TEST(ClosestNames, BestFirstFarOffLeftOut) {
  std::vector<std::string> devices = {"cpu", "cuda", "xpu", "mps", "meta"};
  auto s = ClosestNames("cdua", devices);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), "cuda");
  EXPECT_TRUE(ClosestNames("completely_unrelated", devices).empty());
}

TEST(ClosestNames, ContainmentAndKey) {
  std::vector<std::string> ops = {"aten::_scaled_mm", "aten::mm", "aten::le.Scalar"};
  auto bare = [](std::string_view op) { return op.substr(op.find("::") + 2); };
  auto s = ClosestNames("scaled_mm", ops, 5, bare);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s.front(), "aten::_scaled_mm");
  EXPECT_EQ(ClosestNames("x", ops, 0).size(), 0u);  // limit
}

}  // namespace
}  // namespace testmap::core
