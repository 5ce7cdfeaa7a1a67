#include "timings/trace_timings_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "core/errors.h"
#include "tests/support/temp_dir.h"
#include "timings/timing_file_reader.h"

namespace testmap::timings {
namespace {

std::string DataFile(const std::string& name) {
  return testing::SourcePath("tests/timings/data/" + name);
}

// The shard comes from the tracer's real pytest plugin on the same suite as
// the JUnit fixtures, so its ids must be what pytest collected.
TEST(TraceShardReader, ReadsTheTracersRealShard) {
  auto records = ReadTimingFile(DataFile("trace_shard.jsonl"));
  std::ifstream expected(DataFile("pytest_nodeids.txt"));
  std::set<std::string> ids, want;
  for (std::string l; std::getline(expected, l);) want.insert(l);
  std::map<std::string, TimingRecord> by_id;
  for (const auto& r : records) ids.insert(r.id), by_id[r.id] = r;
  EXPECT_EQ(ids, want);
  const std::string f = "pkg/test_sample.py::";
  EXPECT_EQ(by_id[f + "TestMath::test_skipped"].outcome, Outcome::kSkipped);
  EXPECT_EQ(by_id[f + "TestMath::test_fails"].outcome, Outcome::kFailed);
  EXPECT_EQ(by_id[f + "test_error"].outcome, Outcome::kError);
  EXPECT_NEAR(by_id[f + "TestMath::test_slow"].seconds, 0.2, 0.05);
  EXPECT_EQ(by_id[f + "TestMath::test_slow"].file, "pkg/test_sample");
}

TEST(TraceShardReader, CrashedTestsAreUntimedAndCutLastLineIgnored) {
  auto records = ParseTraceShard(
      "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1}\n"
      "{\"type\":\"test\",\"nodeid\":\"a.py::t\",\"outcome\":\"crashed\",\"duration\":null,"
      "\"ops\":[]}\n"
      "{\"type\":\"begin\",\"nodeid\":\"a.py::u\"}\n{\"type\":\"te",
      "shard");
  // a.py::u began and never finished: crashed too (the cut line is dropped).
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].outcome, Outcome::kSkipped);
  EXPECT_EQ(records[1].id, "a.py::u");
  EXPECT_EQ(records[1].outcome, Outcome::kSkipped);
}

TEST(TraceShardReader, BadInputNamesLine) {
  const std::string run = "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1}\n";
  auto expect_line = [](const std::string& text, int line) {
    try {
      ParseTraceShard(text, "s.jsonl");
      FAIL() << text;
    } catch (const core::InputError& e) {
      EXPECT_EQ(e.line(), line) << e.what();
    }
  };
  expect_line(run + "{\"type\":\"test\",\"nodeid\":\"a.py::t\",\"duration\":-1}\n", 2);
  expect_line(run + "not json\n{\"type\":\"run\"}\n", 2);
  expect_line("{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":9}\n", 1);
  EXPECT_THROW(ParseTraceShard("", "s"), core::InputError);
}

}  // namespace
}  // namespace testmap::timings

namespace testmap::timings {
namespace {

// A shard's `run` record starts its process; the process ends with its last
// test. The real shard's wall time covers its tests and what pytest did
// around them.
TEST(TraceShardReader, RunRecordsAreProcessesWithTheirWallTime) {
  std::vector<ProcessWall> walls;
  auto records = ReadTraceShard(DataFile("trace_shard.jsonl"), &walls);
  ASSERT_EQ(walls.size(), 1u);
  EXPECT_EQ(walls[0].tests, static_cast<int>(records.size()));
  EXPECT_EQ(walls[0].files, 1);
  EXPECT_GT(walls[0].wall_seconds, walls[0].test_seconds);
  EXPECT_LT(walls[0].wall_seconds, 30);
  walls.clear();
  ParseTraceShard(
      "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1,\"metadata\":"
      "{\"start_time\":\"2026-01-01T00:00:00+00:00\"}}\n"
      "{\"type\":\"test\",\"nodeid\":\"a.py::t\",\"outcome\":\"passed\",\"duration\":2,"
      "\"start\":1767225603.0,\"ops\":[]}\n"
      "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1}\n"
      "{\"type\":\"test\",\"nodeid\":\"b.py::t\",\"outcome\":\"passed\",\"duration\":1,"
      "\"start\":1767225700.0,\"ops\":[]}\n",
      "s", &walls);
  ASSERT_EQ(walls.size(), 1u);                 // the second run has no start_time
  EXPECT_DOUBLE_EQ(walls[0].wall_seconds, 5);  // 00:00:00 to 3 s + 2 s
  EXPECT_DOUBLE_EQ(walls[0].Overhead(), 3);
}

TEST(TraceShardReader, DurationsPastAWeekAreErrors) {
  try {
    ParseTraceShard(
        "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1}\n"
        "{\"type\":\"test\",\"nodeid\":\"a.py::t\",\"outcome\":\"passed\",\"duration\":1e20,"
        "\"ops\":[]}\n",
        "s");
    FAIL();
  } catch (const core::InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_NE(std::string(e.what()).find("over the limit"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace testmap::timings
