// `testmap plan --index`: the outcomes ingested into the index plan exactly
// as the trace shards they came from.
#include <gtest/gtest.h>

#include "tests/indexer/index/index_test_support.h"

namespace testmap::testing {
namespace {

TEST(PlanFromIndexTest, SameSplitsAsFromTheShards) {
  const Evidence& ev = SuiteEvidence();
  std::string index = ScratchDir("plan") + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan, ev.trace}).rc, 0);
  for (std::string split : {"1", "2", "3"}) {
    auto from_index = Testmap(
        {"plan", "--index", index, "--splits", "3", "--format", "nodeids", "--split", split});
    auto from_shard =
        Testmap({"plan", ev.trace, "--splits", "3", "--format", "nodeids", "--split", split});
    ASSERT_EQ(from_index.rc, 0) << from_index.err;
    ASSERT_EQ(from_shard.rc, 0) << from_shard.err;
    EXPECT_FALSE(from_index.out.empty());
    EXPECT_EQ(from_index.out, from_shard.out) << "split " << split;
  }
  auto missing = Testmap({"plan", "--index", index + "-missing", "--splits", "2"});
  EXPECT_NE(missing.rc, 0);
  EXPECT_NE(missing.err.find("no testmap index at"), std::string::npos) << missing.err;
}

}  // namespace
}  // namespace testmap::testing
