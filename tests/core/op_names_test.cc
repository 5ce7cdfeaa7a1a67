#include "core/op_names.h"

#include <gtest/gtest.h>

namespace testmap::core {
namespace {

TEST(OpNames, EverySpellingOfAnOverloadIsOneIdentity) {
  for (auto text : {"aten::add.Tensor", "aten.add.Tensor", "torch.ops.aten.add.Tensor",
                    "add.Tensor", " aten::add.Tensor "}) {
    auto op = ParseOpName(text);
    ASSERT_TRUE(op) << text;
    EXPECT_EQ(op->Canonical(), "aten::add.Tensor") << text;
    EXPECT_FALSE(op->is_packet) << text;
  }
}

TEST(OpNames, DefaultOverloadIsSpelledWithoutSuffix) {
  EXPECT_EQ(CanonicalOpName("aten.mm.default"), "aten::mm");
  EXPECT_EQ(CanonicalOpName("torch.ops.aten._scaled_mm.default"), "aten::_scaled_mm");
  EXPECT_EQ(CanonicalOpName("aten::mm.default"), "aten::mm");
  auto op = ParseOpName("aten.mm.default");
  EXPECT_FALSE(op->is_packet);
}

TEST(OpNames, PacketsMatchAllTheirOverloads) {
  auto packet = ParseOpName("_scaled_mm");
  ASSERT_TRUE(packet);
  EXPECT_TRUE(packet->is_packet);
  EXPECT_EQ(packet->Canonical(), "aten::_scaled_mm");
  EXPECT_EQ(ParseOpName("aten::add")->Packet(), "aten::add");
  EXPECT_TRUE(ParseOpName("aten.add")->is_packet);
  EXPECT_TRUE(ParseOpName("add")->Matches(*ParseOpName("aten::add.Tensor")));
  EXPECT_TRUE(ParseOpName("add")->Matches(*ParseOpName("aten::add.out")));
  EXPECT_TRUE(ParseOpName("add.Tensor")->Matches(*ParseOpName("aten::add.Tensor")));
  EXPECT_FALSE(ParseOpName("add.Tensor")->Matches(*ParseOpName("aten::add.Scalar")));
  EXPECT_FALSE(ParseOpName("add")->Matches(*ParseOpName("aten::addmm")));
  EXPECT_FALSE(ParseOpName("mm.default")->Matches(*ParseOpName("aten::mm.out")));
  EXPECT_TRUE(ParseOpName("mm.default")->Matches(*ParseOpName("aten::mm")));
}

TEST(OpNames, OtherNamespacesSurvive) {
  EXPECT_EQ(CanonicalOpName("torch.ops.prims.convert_element_type.default"),
            "prims::convert_element_type");
  EXPECT_EQ(CanonicalOpName("torch.ops.mylib.custom.default"), "mylib::custom");
  EXPECT_EQ(CanonicalOpName("torch.ops.mylib.custom"), "mylib::custom");
  EXPECT_EQ(CanonicalOpName("spyre::foo.out"), "spyre::foo.out");
  EXPECT_EQ(CanonicalOpName("higher_order.cond"), "higher_order::cond");
}

TEST(OpNames, GarbageIsRejected) {
  for (auto text : {"", "::", "aten::", "a b", "aten::add.Tensor.x", "x.y.z.w", "aten::1add",
                    "torch.ops.", "add..Tensor", "aten::add."}) {
    EXPECT_EQ(ParseOpName(text), std::nullopt) << text;
  }
}

}  // namespace
}  // namespace testmap::core
