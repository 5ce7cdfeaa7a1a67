// The edge value encoding and the key layout: round trips, canonical
// bytes (what makes ingestion idempotent), malformed values.
#include "indexer/edge_value.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "indexer/index_layout.h"

namespace testmap::indexer {
namespace {

TEST(EdgeValueTest, RoundTripsAndMergesDuplicates) {
  std::vector<EdgeTuple> tuples = {
      {"eager", "cpu", {"float8_e4m3fn", "float8_e4m3fn", "float32"}, 2},
      {"compile", "cpu", {"bfloat16"}, 1},
      {"eager", "cpu", {"float8_e4m3fn", "float8_e4m3fn", "float32"}, 3},
      {"eager", "", {}, 1},
  };
  std::string value = EncodeEdge(tuples);
  auto decoded = DecodeEdge(value);
  ASSERT_EQ(decoded.size(), 3u);
  EXPECT_EQ(decoded[0], (EdgeTuple{"compile", "cpu", {"bfloat16"}, 1}));
  EXPECT_EQ(decoded[1], (EdgeTuple{"eager", "", {}, 1}));
  EXPECT_EQ(decoded[2],
            (EdgeTuple{"eager", "cpu", {"float8_e4m3fn", "float8_e4m3fn", "float32"}, 5}));
}

TEST(EdgeValueTest, SameObservationsSameBytesWhateverTheOrder) {
  std::vector<EdgeTuple> a = {{"eager", "cpu", {"float32"}, 1}, {"eager", "cpu", {"int64"}, 4}};
  std::vector<EdgeTuple> b = {a[1], a[0]};
  EXPECT_EQ(EncodeEdge(a), EncodeEdge(b));
}

TEST(EdgeValueTest, RolesAreKeptApartAndSchemaTwoTuplesAreRoleTest) {
  EdgeTuple in_assert{"eager", "cpu", {"float32"}, 2, "assert"};
  EdgeTuple own{"eager", "cpu", {"float32"}, 1};
  EXPECT_EQ(own.role, "test");
  std::string value = EncodeEdge({in_assert, own});
  EXPECT_EQ(value, "eager\tassert\tcpu\tfloat32\t2\neager\ttest\tcpu\tfloat32\t1");
  EXPECT_EQ(DecodeEdge(value), (std::vector<EdgeTuple>{in_assert, own}));
  // An index of schema 2 holds four fields per tuple.
  EXPECT_EQ(DecodeEdge("eager\tcpu\tfloat32,int64\t3"),
            (std::vector<EdgeTuple>{{"eager", "cpu", {"float32", "int64"}, 3, "test"}}));
  EXPECT_THROW(DecodeEdge("eager\tasert\tcpu\tfloat32\t1"), core::InputError);
}

TEST(EdgeValueTest, MalformedValuesThrow) {
  EXPECT_THROW(DecodeEdge("eager\tcpu\tfloat32"), core::InputError);
  EXPECT_THROW(DecodeEdge("eager\tcpu\tfloat32\tmany"), core::InputError);
  EXPECT_THROW(DecodeEdge("guessed\tcpu\tfloat32\t1"), core::InputError);
}

TEST(IndexLayoutTest, KeysSplitAndPrefixesDoNotLeakIntoLongerNames) {
  std::string key = JoinKey({"aten::add", "Tensor", "t.py::T::test_a", "0123"});
  auto f = SplitKey(key);
  ASSERT_EQ(f.size(), 4u);
  EXPECT_EQ(f[2], "t.py::T::test_a");
  // The packet prefix of `add` must not match `addmm`'s keys.
  std::string add = KeyPrefix({"aten::add"});
  EXPECT_TRUE(key.starts_with(add));
  EXPECT_FALSE(JoinKey({"aten::addmm", "", "t.py::T::test_a", "0123"}).starts_with(add));
  EXPECT_STREQ(CfName(Cf::kOpTests), "op_tests");
}

}  // namespace
}  // namespace testmap::indexer
