#include "core/dtype_names.h"

#include <gtest/gtest.h>

namespace testmap::core {
namespace {

TEST(DtypeNames, AllSpellingsReachTheTorchName) {
  // torch name, c10 name, TORCH_LOGS abbreviation, qualified, alias.
  EXPECT_EQ(NormalizeDtype("float32"), "float32");
  EXPECT_EQ(NormalizeDtype("Float"), "float32");
  EXPECT_EQ(NormalizeDtype("f32"), "float32");
  EXPECT_EQ(NormalizeDtype("torch.float32"), "float32");
  EXPECT_EQ(NormalizeDtype("torch.float"), "float32");
  EXPECT_EQ(NormalizeDtype("BFloat16"), "bfloat16");
  EXPECT_EQ(NormalizeDtype("bf16"), "bfloat16");
  EXPECT_EQ(NormalizeDtype("Long"), "int64");
  EXPECT_EQ(NormalizeDtype("i64"), "int64");
  EXPECT_EQ(NormalizeDtype("b8"), "bool");
  EXPECT_EQ(NormalizeDtype("Bool"), "bool");
  EXPECT_EQ(NormalizeDtype("c64"), "complex64");
  EXPECT_EQ(NormalizeDtype("ComplexFloat"), "complex64");
  EXPECT_EQ(NormalizeDtype("f8e4m3fn"), "float8_e4m3fn");
  EXPECT_EQ(NormalizeDtype("Float8_e4m3fn"), "float8_e4m3fn");
  EXPECT_EQ(NormalizeDtype("Half"), "float16");
  EXPECT_EQ(NormalizeDtype("half"), "float16");
  EXPECT_EQ(NormalizeDtype("Char"), "int8");
  EXPECT_EQ(NormalizeDtype("Byte"), "uint8");
  EXPECT_EQ(NormalizeDtype("f4e2m1fnx2"), "float4_e2m1fn_x2");
}

TEST(DtypeNames, UnknownAndAmbiguousSpellingsAreRejected) {
  EXPECT_EQ(NormalizeDtype(""), std::nullopt);
  EXPECT_EQ(NormalizeDtype("torch."), std::nullopt);
  EXPECT_EQ(NormalizeDtype("FLOAT32"), std::nullopt);
  EXPECT_EQ(NormalizeDtype("B8"), std::nullopt);
  EXPECT_EQ(NormalizeDtype("float128"), std::nullopt);
  EXPECT_EQ(NormalizeDtype("Sym"), std::nullopt);
}

TEST(DtypeNames, AbbreviationRoundTrips) {
  for (const auto& name : AllDtypes()) {
    EXPECT_EQ(NormalizeDtype(name), name);
    if (auto abbr = DtypeAbbreviation(name)) {
      EXPECT_EQ(NormalizeDtype(*abbr), name) << *abbr;
    }
  }
  EXPECT_EQ(DtypeAbbreviation("bfloat16"), "bf16");
  EXPECT_EQ(DtypeAbbreviation("qint8"), std::nullopt);
}

}  // namespace
}  // namespace testmap::core
