// tracer/shard_progress.h: the finished-test count of a running trace, read
// from shards as they grow, as pytest's processes write them (a record at
// a time, the last line possibly cut mid-write).
#include "tracer/shard_progress.h"

#include <gtest/gtest.h>

#include <fstream>

#include "tests/support/temp_dir.h"

namespace testmap::tracer {
namespace {

const char kRun[] =
    R"({"type":"run","format":"testmap-trace","version":1,"worker":"main","metadata":{}})"
    "\n";

std::string Begin(const std::string& id) {
  return R"({"type":"begin","nodeid":")" + id +
         R"(","worker":"main","time":1.0})"
         "\n";
}
std::string Finished(const std::string& id) {
  return R"({"type":"test","nodeid":")" + id +
         R"(","outcome":"passed","duration":0.1,"start":1.0,"worker":"main","phases":{},"ops":[]})"
         "\n";
}

void Append(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::app) << text;
}

TEST(ShardProgress, CountsFinishedTestsAsTheShardsGrow) {
  testing::TempDir dir;
  std::string a = (dir.path() / "trace-gw0.jsonl").string();
  std::string b = (dir.path() / "trace-gw1.jsonl").string();
  ShardProgress progress(dir.path().string());
  EXPECT_EQ(progress.Poll(), 0u);
  Append(a, kRun + Begin("t.py::a"));
  EXPECT_EQ(progress.Poll(), 0u);  // begun, not finished
  Append(a, Finished("t.py::a") + Begin("t.py::b"));
  EXPECT_EQ(progress.Poll(), 1u);
  // Half a record: counted once its line is complete.
  std::string next = Finished("t.py::b");
  Append(a, next.substr(0, 30));
  EXPECT_EQ(progress.Poll(), 1u);
  Append(a, next.substr(30));
  EXPECT_EQ(progress.Poll(), 2u);
  // A shard that appears later (another xdist worker).
  Append(b, kRun + Begin("t.py::c") + Finished("t.py::c"));
  EXPECT_EQ(progress.Poll(), 3u);
  // A restarted worker appends a new run record to its shard.
  Append(b, kRun + Begin("t.py::d") + Finished("t.py::d"));
  EXPECT_EQ(progress.Poll(), 4u);
  EXPECT_EQ(progress.Poll(), 4u);
}

TEST(ShardProgress, WhatTheShardsHeldBeforeIsNotCounted) {
  testing::TempDir dir;
  std::string a = (dir.path() / "trace-main.jsonl").string();
  Append(a, kRun + Begin("t.py::old") + Finished("t.py::old"));
  ShardProgress progress(dir.path().string());  // `testmap trace --keep`
  EXPECT_EQ(progress.Poll(), 0u);
  Append(a, kRun + Begin("t.py::new") + Finished("t.py::new"));
  EXPECT_EQ(progress.Poll(), 1u);
}

TEST(ShardProgress, ABadShardStopsCountingWithoutFailing) {
  testing::TempDir dir;
  std::string a = (dir.path() / "trace-main.jsonl").string();
  ShardProgress progress(dir.path().string());
  Append(a, kRun + Finished("t.py::a") + "not json\n" + Finished("t.py::b"));
  EXPECT_EQ(progress.Poll(), 0u);  // the chunk is refused whole; `trace` reports it at the end
  Append(a, Finished("t.py::c"));
  EXPECT_EQ(progress.Poll(), 0u);
}

}  // namespace
}  // namespace testmap::tracer
