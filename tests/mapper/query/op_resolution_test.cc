// Operator resolution for queries: every spelling, packets vs overloads,
// and suggestions for names the index does not know.
#include "mapper/query/op_resolution.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace testmap::query {
namespace {

TEST(OpResolutionTest, EverySpellingOfAnOverload) {
  for (const char* s :
       {"add.Tensor", "aten::add.Tensor", "aten.add.Tensor", "torch.ops.aten.add.Tensor"}) {
    ResolvedOp op = ParseQueryOp(s);
    EXPECT_EQ(op.packet, "aten::add") << s;
    ASSERT_TRUE(op.overload.has_value()) << s;
    EXPECT_EQ(*op.overload, "Tensor") << s;
    EXPECT_EQ(op.canonical, "aten::add.Tensor") << s;
  }
}

TEST(OpResolutionTest, PacketsAndTheDefaultOverload) {
  ResolvedOp packet = ParseQueryOp("_scaled_mm");
  EXPECT_EQ(packet.packet, "aten::_scaled_mm");
  EXPECT_FALSE(packet.overload.has_value());
  ResolvedOp dflt = ParseQueryOp("aten.mm.default");
  ASSERT_TRUE(dflt.overload.has_value());
  EXPECT_EQ(*dflt.overload, "");
  EXPECT_THROW(ParseQueryOp("not an op"), core::UnknownNameError);
}

TEST(OpResolutionTest, KnownOpsMatchPacketsAndOverloads) {
  std::vector<std::string> known = {"aten::add.Tensor", "aten::addmm", "aten::mm"};
  EXPECT_TRUE(IsKnownOp(ParseQueryOp("add"), known));
  EXPECT_TRUE(IsKnownOp(ParseQueryOp("add.Tensor"), known));
  EXPECT_FALSE(IsKnownOp(ParseQueryOp("add.Scalar"), known));
  EXPECT_FALSE(IsKnownOp(ParseQueryOp("ad"), known));  // not a prefix match
}

TEST(OpResolutionTest, SuggestsTheClosestNames) {
  std::vector<std::string> known = {"aten::_scaled_mm", "aten::mm", "aten::add.Tensor",
                                    "aten::le.Scalar", "aten::bitwise_and_.Tensor"};
  EXPECT_EQ(ClosestOps("scaled_mm", known), std::vector<std::string>{"aten::_scaled_mm"});
  auto adds = ClosestOps("ad", known);
  ASSERT_FALSE(adds.empty());
  EXPECT_EQ(adds[0], "aten::add.Tensor");
  EXPECT_TRUE(ClosestOps("convolution_backward", known).empty());
}

}  // namespace
}  // namespace testmap::query
