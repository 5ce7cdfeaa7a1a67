#include "timings/timing_file_reader.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "tests/support/temp_dir.h"

namespace testmap::timings {
namespace {

std::string DataFile(const std::string& name) {
  return testing::SourcePath("tests/timings/data/" + name);
}

TEST(TimingFileReader, DetectsEachFormatByContent) {
  EXPECT_EQ(DetectTimingFormat("  <?xml version=\"1.0\"?><testsuites/>", "x"),
            TimingFormat::kJUnitXml);
  EXPECT_EQ(DetectTimingFormat("{\"a.py::Test::t\": 1.0}", "x"), TimingFormat::kTestDurations);
  EXPECT_EQ(DetectTimingFormat("{\"a\\\"b.py::t\": 1.0}", "x"), TimingFormat::kTestDurations);
  EXPECT_EQ(DetectTimingFormat("[[\"a.py::t\", 1]]", "x"), TimingFormat::kTestDurations);
  EXPECT_EQ(DetectTimingFormat("{\n \"linux\": {\"default\": {\"test_nn\": 3}}}", "x"),
            TimingFormat::kTestTimes);
  EXPECT_THROW(DetectTimingFormat("", "x"), core::InputError);
  EXPECT_THROW(DetectTimingFormat("hello", "x"), core::InputError);
}

TEST(TimingFileReader, ReadsEveryFormat) {
  EXPECT_EQ(ReadTimingFile(DataFile("pytest_xunit2.xml")).size(), 8u);
  EXPECT_EQ(ReadTimingFile(testing::WriteTempFile("d.json", "{\"a.py::t\": 1}")).size(), 1u);
  auto times =
      ReadTimingFile(testing::WriteTempFile("tt.json", "{\"j\": {\"c\": {\"test_nn\": 3}}}"));
  ASSERT_EQ(times.size(), 1u);
  EXPECT_EQ(times[0].job, "j");
}

}  // namespace
}  // namespace testmap::timings
