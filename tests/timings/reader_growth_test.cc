// Every timing reader is linear in its input: reading 4n records takes
// about 4 times as long as reading n, never 16 (a lookup of each record's
// line from the start of the text made .test_durations and JUnit readers
// quadratic: 100,000 durations took minutes). Times are compared within one
// run, in a few pairs, with a generous bound on the ratio
// (tests/support/growth.h).
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tests/support/growth.h"
#include "timings/durations_reader.h"
#include "timings/junit_reader.h"
#include "timings/pytorch_times_reader.h"
#include "timings/trace_timings_reader.h"

namespace testmap::timings {
namespace {

constexpr int kN = 10000;

void ExpectLinear(const std::string& what, const std::function<std::string(int)>& make,
                  const std::function<size_t(const std::string&)>& read) {
  testing::ExpectLinear(what, kN, make, read);
}

std::string Id(int i) {
  return "tests/test_f" + std::to_string(i % 97) + ".py::TestC" + std::to_string(i % 7) +
         "::test_" + std::to_string(i) + "[float32]";
}

TEST(ReaderGrowth, TestDurationsObject) {
  ExpectLinear(
      ".test_durations",
      [](int n) {
        std::string s = "{\n";
        for (int i = 0; i < n; ++i) s += "    \"" + Id(i) + "\": 0.25" + (i + 1 < n ? ",\n" : "\n");
        return s + "}\n";
      },
      [](const std::string& text) { return ParseTestDurations(text, "d").size(); });
}

TEST(ReaderGrowth, TestDurationsLegacyList) {
  ExpectLinear(
      ".test_durations (list)",
      [](int n) {
        std::string s = "[";
        for (int i = 0; i < n; ++i) s += (i ? ",\n[\"" : "\n[\"") + Id(i) + "\", 0.5]";
        return s + "]";
      },
      [](const std::string& text) { return ParseTestDurations(text, "d").size(); });
}

// pytest writes the whole report on one line.
TEST(ReaderGrowth, JUnitOnOneLine) {
  ExpectLinear(
      "JUnit XML",
      [](int n) {
        std::string s = "<testsuites><testsuite name=\"pytest\" time=\"100\">";
        for (int i = 0; i < n; ++i) {
          s += "<testcase classname=\"tests.test_f" + std::to_string(i % 97) +
               ".TestC\" name=\"test_" + std::to_string(i) + "\" time=\"0.01\" />";
        }
        return s + "</testsuite></testsuites>";
      },
      [](const std::string& text) {
        std::vector<ProcessWall> walls;
        return ParseJUnitXml(text, "j", &walls).size();
      });
}

TEST(ReaderGrowth, TestTimes) {
  ExpectLinear(
      "test-times.json",
      [](int n) {
        std::string s = "{\"default\": {";
        for (int c = 0; c < 10; ++c) {
          s += (c ? ", \"config" : "\"config") + std::to_string(c) + "\": {\n";
          for (int i = 0; i < n / 5; ++i)
            s += (i ? ",\n\"test_" : "\"test_") + std::to_string(i) + "\": 12.5";
          s += "}";
        }
        return s + "}}";
      },
      [](const std::string& text) { return ParseTestTimes(text, "t").size(); });
}

TEST(ReaderGrowth, TraceShard) {
  ExpectLinear(
      "trace shard",
      [](int n) {
        std::string s =
            "{\"type\":\"run\",\"format\":\"testmap-trace\",\"version\":1,\"metadata\":"
            "{\"start_time\":\"2026-11-29T23:25:44.786029+00:00\"}}\n";
        for (int i = 0; i < n; ++i) {
          s += "{\"type\":\"test\",\"nodeid\":\"" + Id(i) +
               "\",\"outcome\":\"passed\",\"duration\":0.01,\"start\":1795994745.0,\"ops\":[]}\n";
        }
        return s;
      },
      [](const std::string& text) {
        std::vector<ProcessWall> walls;
        return ParseTraceShard(text, "s", &walls).size();
      });
}

}  // namespace
}  // namespace testmap::timings
