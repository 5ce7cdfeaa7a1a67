#include "indexer/timings/timing_file_reader.h"

#include <gtest/gtest.h>

#include "indexer/timings/timing_error.h"
#include "temp_file.h"

namespace testmap::indexer {
namespace {

using testing::WriteTemp;

TEST(TimingFileReader, DetectsEachFormatByContent) {
  EXPECT_EQ(DetectTimingFormat("  <?xml version=\"1.0\"?><testsuites/>", "x"),
            TimingFormat::kJUnitXml);
  EXPECT_EQ(DetectTimingFormat("{\"a.py::Test::t\": 1.0}", "x"), TimingFormat::kTestDurations);
  EXPECT_EQ(DetectTimingFormat("{\"a\\\"b.py::t\": 1.0}", "x"), TimingFormat::kTestDurations);
  EXPECT_EQ(DetectTimingFormat("[[\"a.py::t\", 1]]", "x"), TimingFormat::kTestDurations);
  EXPECT_EQ(DetectTimingFormat("{\n \"linux\": {\"default\": {\"test_nn\": 3}}}", "x"),
            TimingFormat::kTestTimes);
  EXPECT_THROW(DetectTimingFormat("", "x"), TimingError);
  EXPECT_THROW(DetectTimingFormat("hello", "x"), TimingError);
}

TEST(TimingFileReader, ReadsEveryFormat) {
  EXPECT_EQ(ReadTimingFile(testing::DataPath("pytest_xunit2.xml")).size(), 8u);
  EXPECT_EQ(ReadTimingFile(WriteTemp("d.json", "{\"a.py::t\": 1}")).size(), 1u);
  auto times = ReadTimingFile(WriteTemp("tt.json", "{\"j\": {\"c\": {\"test_nn\": 3}}}"));
  ASSERT_EQ(times.size(), 1u);
  EXPECT_EQ(times[0].job, "j");
}

}  // namespace
}  // namespace testmap::indexer
