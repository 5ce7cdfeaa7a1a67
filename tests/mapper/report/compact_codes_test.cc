// The compact codes a report page embeds (mapper/report/compact_codes.h).
// The page's JavaScript decoder reads them in report_page_test, in Chromium.
#include "mapper/report/compact_codes.h"

#include <gtest/gtest.h>

#include <random>

#include "core/errors.h"

namespace testmap::report {
namespace {

TEST(CompactCodes, VarintsRoundTripAndSmallNumbersTakeOneCharacter) {
  std::mt19937_64 rng(7);
  std::vector<uint64_t> values = {
      0, 1, 31, 32, 1023, 1024, uint64_t{1} << 40, std::numeric_limits<uint32_t>::max()};
  for (int i = 0; i < 1000; ++i) values.push_back(rng() >> (rng() % 64));
  std::string code;
  for (uint64_t v : values) AppendVarint(v, code);
  EXPECT_EQ(DecodeVarints(code), values);
  for (uint64_t v = 0; v < 32; ++v) {
    std::string one;
    AppendVarint(v, one);
    EXPECT_EQ(one.size(), 1u) << v;
  }
  std::string two;
  AppendVarint(32, two);
  EXPECT_EQ(two.size(), 2u);
  for (char c : code) EXPECT_NE(kCodeAlphabet.find(c), std::string_view::npos);
}

TEST(CompactCodes, BadVarintCodesAreErrors) {
  EXPECT_THROW(DecodeVarints("A!"), core::InputError);
  std::string cut;
  AppendVarint(1000, cut);
  cut.pop_back();
  EXPECT_THROW(DecodeVarints(cut), core::InputError);
}

TEST(CompactCodes, FrontCodingSharesPrefixes) {
  std::vector<std::string> ids = {"",
                                  "test_ops.py::TestCommonCPU::test_out_add_cpu_float32",
                                  "test_ops.py::TestCommonCPU::test_out_add_cpu_float64",
                                  "test_ops.py::TestCommonCPU::test_out_addmm_cpu_float32",
                                  "test_z.py::test_x[a\tb]",
                                  "ü_unicode.py::test_ß"};
  std::string code = FrontCode(ids);
  EXPECT_EQ(DecodeFrontCoded(code), ids);
  size_t plain = 0;
  for (const auto& s : ids) plain += s.size() + 1;
  EXPECT_LT(code.size(), plain * 2 / 3);
}

TEST(CompactCodes, FrontCodingRefusesWhatItCannotEncode) {
  EXPECT_THROW(FrontCode({"b", "a"}), core::InputError);
  EXPECT_THROW(FrontCode({"a\nb"}), core::InputError);
  EXPECT_THROW(DecodeFrontCoded("Aabc"), core::InputError);  // no newline
  EXPECT_THROW(DecodeFrontCoded("Ka\n"), core::InputError);  // shares 10 of nothing
}

}  // namespace
}  // namespace testmap::report
