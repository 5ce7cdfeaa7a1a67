// `testmap plan --index`: the outcomes and timing files ingested into the
// index plan exactly as the files they came from.
#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

TEST(PlanFromIndexTest, SameSplitsAsFromTheShards) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
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

// JUnit XML from real pytest runs (both junit families), a .test_durations
// and a test-times.json, ingested together: the same plan as from the files.
TEST(PlanFromIndexTest, TimingFilesPlanAsFromTheFiles) {
  std::string dir = ScratchDir("timings");
  std::string durations = dir + "/.test_durations";
  std::ofstream(durations)
      << "{\"extra/test_a.py::test_x\": 3.5, \"extra/test_a.py::test_y\": 1.25}";
  std::string times = dir + "/test-times.json";
  std::ofstream(times) << "{\"default\": {\"default\": {\"test_nn\": 120.0, \"test_ops\": 300.5}}}";
  std::string data = std::string(TESTMAP_SOURCE_DIR) + "/tests/timings/data/";
  std::vector<std::string> files = {data + "pytest_xunit1.xml", data + "pytest_xunit2.xml",
                                    durations, times};
  std::string index = dir + "/index";
  std::vector<std::string> ingest = {"ingest", "--index", index};
  ingest.insert(ingest.end(), files.begin(), files.end());
  auto first = Testmap(ingest);
  ASSERT_EQ(first.rc, 0) << first.err;
  EXPECT_NE(first.out.find("timing records"), std::string::npos) << first.out;
  for (std::string split : {"1", "2"}) {
    std::vector<std::string> from_files = {"plan",    "--splits", "2",  "--format",
                                           "nodeids", "--split",  split};
    from_files.insert(from_files.end(), files.begin(), files.end());
    auto a = Testmap(
        {"plan", "--index", index, "--splits", "2", "--format", "nodeids", "--split", split});
    auto b = Testmap(from_files);
    ASSERT_EQ(a.rc, 0) << a.err;
    ASSERT_EQ(b.rc, 0) << b.err;
    EXPECT_FALSE(a.out.empty());
    EXPECT_EQ(a.out, b.out) << "split " << split;
  }
  // Idempotent: the same files again change nothing.
  std::string before = Testmap({"index", "dump", "--index", index}).out;
  ASSERT_EQ(Testmap(ingest).rc, 0);
  EXPECT_EQ(Testmap({"index", "dump", "--index", index}).out, before);
  // A malformed timing file names its line and writes nothing.
  std::string bad = dir + "/bad.json";
  std::ofstream(bad) << "{\n\"a.py::t\": -1\n}";
  auto rejected = Testmap({"ingest", "--index", index, bad});
  EXPECT_NE(rejected.rc, 0);
  EXPECT_NE(rejected.err.find(bad + ":2:"), std::string::npos) << rejected.err;
  EXPECT_EQ(Testmap({"index", "dump", "--index", index}).out, before);
}

}  // namespace
}  // namespace testmap::testing
