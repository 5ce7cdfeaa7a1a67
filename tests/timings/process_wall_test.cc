// A run's wall from its start_time: the epoch seconds agree with Python's
// own reading of the plugin's timestamps, and bad ones are refused.
#include "timings/process_wall.h"

#include <gtest/gtest.h>

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>

#include "tests/support/command.h"

namespace testmap::timings {
namespace {

TEST(ProcessWall, EpochOfIsoAgreesWithPython) {
  // The plugin's UTC start_time, pytest's JUnit timestamp with the local
  // offset, and pytest < 8's without one (read as UTC, as Python does
  // with tzinfo=utc).
  const char* stamps[] = {"2026-12-01T08:00:00.123456+00:00", "1970-01-01T00:00:00+00:00",
                          "2000-02-29T23:59:59.5+00:00",      "2024-03-01T00:00:00Z",
                          "2100-12-31T12:34:56.000001+00:00", "2026-12-01T09:00:00.25+01:00",
                          "2026-11-30T19:30:00-05:30",        "2026-11-29T23:25:28.092635"};
  for (const char* iso : stamps) {
    auto py = testing::Python(
        {"-c", std::string("import datetime as d; t = d.datetime.fromisoformat('") + iso +
                   "'.replace('Z', '+00:00')); print(repr((t if t.tzinfo else "
                   "t.replace(tzinfo=d.timezone.utc)).timestamp()))"});
    ASSERT_EQ(py.rc, 0) << py.err;
    EXPECT_NEAR(EpochOfIso(iso), std::strtod(py.out.c_str(), nullptr), 1e-6) << iso;
  }
  for (const char* bad :
       {"", "yesterday", "2026-13-01T00:00:00+00:00", "2026-12-01T25:00:00+00:00",
        "2026-12-01T08:00:00+2:00", "2026-12-01T08:00:00+02:00x", "2026-12-01T08:00:00 CET"}) {
    EXPECT_LT(EpochOfIso(bad), 0) << bad;
  }
}

TEST(ProcessWall, TraceRunWallFromStartToTheLastTestsEnd) {
  TraceRunWall wall;
  ASSERT_TRUE(
      wall.Start(R"({"metadata":{"start_time":"1970-01-01T00:00:10+00:00"}})", "s.jsonl", 1, 0));
  wall.AddTest("test_a", 2.0, 12.0);  // ends at 14
  wall.AddTest("test_b", 1.0, 20.0);  // ends at 21
  wall.AddTest("test_a", 0.5, std::nullopt);
  auto w = wall.Finish(3);
  ASSERT_TRUE(w);
  EXPECT_DOUBLE_EQ(w->wall_seconds, 11.0);
  EXPECT_DOUBLE_EQ(w->test_seconds, 3.5);
  EXPECT_DOUBLE_EQ(w->Overhead(), 7.5);
  EXPECT_EQ(w->tests, 3);
  EXPECT_EQ(w->files, 2);
  EXPECT_EQ(w->end_record, 3u);
  EXPECT_DOUBLE_EQ(w->start, 10.0);
  // No start_time, or no tests: nothing to learn from.
  EXPECT_FALSE(wall.Start(R"({"metadata":{}})", "s.jsonl", 1, 0));
  EXPECT_FALSE(wall.Finish(0));
  ASSERT_TRUE(
      wall.Start(R"({"metadata":{"start_time":"1970-01-01T00:00:10+00:00"}})", "s.jsonl", 1, 0));
  EXPECT_FALSE(wall.Finish(0));
}

TEST(ProcessWall, ACollectOnlyRunIsAWallToTheEndOfCollectingAndTheIndexsRecordReadsAlike) {
  const std::string run = R"({"metadata":{"start_time":"1970-01-01T00:00:10+00:00"}})";
  TraceRunWall from_shard;
  ASSERT_TRUE(from_shard.Start(run, "s.jsonl", 1, 0));
  from_shard.AddCollection(13.5, {{"test/test_a.py", 1000}, {"test/test_b.py", 0}});
  auto a = from_shard.Finish(0);
  ASSERT_TRUE(a);
  EXPECT_DOUBLE_EQ(a->wall_seconds, 3.5);
  EXPECT_DOUBLE_EQ(a->Overhead(), 3.5);
  EXPECT_EQ(a->tests, 0);
  EXPECT_EQ(a->files, 2);
  EXPECT_EQ(a->collection, (std::map<std::string, int>{{"test/test_a", 1000}, {"test/test_b", 0}}));
  // The index keeps the collection record in the run's record.
  TraceRunWall from_index;
  ASSERT_TRUE(from_index.Start(
      R"({"metadata":{"start_time":"1970-01-01T00:00:10+00:00"},"collection":{"start":10.2,"end":13.5,"files":{"test/test_a.py":1000,"test/test_b.py":0}}})",
      "index", 0, 0));
  auto b = from_index.Finish(0);
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->wall_seconds, a->wall_seconds);
  EXPECT_EQ(b->files, a->files);
  EXPECT_EQ(b->collection, a->collection);
  // Absurd counts (the index's JSON may hold any integer) are kept in range.
  TraceRunWall absurd;
  ASSERT_TRUE(absurd.Start(run, "s.jsonl", 1, 0));
  absurd.AddCollection(11, {{"a.py", INT64_MAX}, {"a.py", INT64_MAX}, {"b.py", -5}});
  auto d = absurd.Finish(0);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->collection, (std::map<std::string, int>{{"a", INT_MAX}, {"b", 0}}));
  // Tests run after collecting: files collected but not run count too.
  TraceRunWall both;
  ASSERT_TRUE(both.Start(run, "s.jsonl", 1, 0));
  both.AddCollection(12, {{"test/test_a.py", 1000}, {"test/test_b.py", 5}});
  both.AddTest("test/test_a", 1.0, 12.0);
  auto c = both.Finish(1);
  ASSERT_TRUE(c);
  EXPECT_DOUBLE_EQ(c->wall_seconds, 3.0);
  EXPECT_EQ(c->files, 2);
  EXPECT_EQ(c->tests, 1);
}

}  // namespace
}  // namespace testmap::timings
