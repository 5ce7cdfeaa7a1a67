#include "timings/durations_reader.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "tests/support/temp_dir.h"

namespace testmap::timings {
namespace {

TEST(TestDurationsReader, ReadsObjectFormat) {
  auto records = ReadTestDurations(testing::WriteTempFile(
      ".test_durations",
      "{\n  \"tests/test_a.py::TestA::test_x\": 1.5,\n"
      "  \"tests/test_a.py::test_y[1-2]\": 0.25,\n  \"tests/test_b.py\": 3\n}\n"));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].id, "tests/test_a.py::TestA::test_x");
  EXPECT_EQ(records[0].file, "tests/test_a");
  EXPECT_EQ(records[0].cls, "TestA");
  EXPECT_DOUBLE_EQ(records[0].seconds, 1.5);
  EXPECT_EQ(records[0].line, 2);
  EXPECT_EQ(records[2].level, TimingLevel::kFile);
}

TEST(TestDurationsReader, ReadsLegacyListFormat) {
  auto records = ReadTestDurations(
      testing::WriteTempFile("legacy", "[[\"t.py::test_a\", 2.0], [\"t.py::test_b\", 1]]"));
  ASSERT_EQ(records.size(), 2u);
  EXPECT_DOUBLE_EQ(records[1].seconds, 1.0);
}

void ExpectError(const std::string& content, int line, const std::string& fragment) {
  std::string path = testing::WriteTempFile("bad_durations", content);
  try {
    ReadTestDurations(path);
    FAIL() << "no error for " << content;
  } catch (const core::InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(TestDurationsReader, BadInput) {
  ExpectError("", 0, "empty timing file");
  ExpectError("{\n\"a.py::t\": 1,\n\"a.py::u\": NaN\n}", 3,
              "NaN");  // Python's json.dump writes NaN
  ExpectError("{\n\"a.py::t\": -2\n}", 2, "negative");
  ExpectError("{\n\"a.py::t\": \"1s\"\n}", 2, "not a number");
  ExpectError("{\n\"a.py::t\": 1,\n\"a.py::t\": 2\n}", 3, "duplicate key");
  ExpectError("[[\"a.py::t\", 1], [\"a.py::t\", 2]]", 1, "duplicate node id");
  ExpectError("{\n\"a.py::t\": 1,\n", 3, "invalid JSON");
  ExpectError("42", 1, "expected a JSON object");
  ExpectError("[\n[\"a.py::t\", 1],\n[\"a.py::t\", 2]]", 3, "first on line 2");
}

// Durations past a week made files vanish from plans (1e20, 1e308) or cut
// one file into millions of pieces (1e10): errors at their line now.
TEST(TestDurationsReader, DurationsPastAWeekAreErrors) {
  for (const char* huge : {"1e10", "1e20", "1e308", "604801"}) {
    ExpectError(std::string("{\n\"a.py::t\": 1,\n\"a.py::u\": ") + huge + "\n}", 3,
                "over the limit of 604800 s");
  }
  ExpectError("{\n\"a.py::t\": 1e400\n}", 2, "number overflow");
  auto records = ParseTestDurations("{\"a.py::t\": 604800}", "d");
  EXPECT_DOUBLE_EQ(records[0].seconds, kMaxDurationSeconds);
}

}  // namespace
}  // namespace testmap::timings
