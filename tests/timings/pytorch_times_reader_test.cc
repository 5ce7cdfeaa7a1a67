#include "timings/pytorch_times_reader.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <map>

#include "core/errors.h"
#include "tests/support/temp_dir.h"

namespace testmap::timings {
namespace {

// The real file PyTorch's sharding reads; the counts are the facts its
// README states: 46 jobs, default/default holds 999 files.
TEST(TestTimesReader, ReadsTheRealPyTorchFile) {
  const char* dir = std::getenv("TESTMAP_SHARED_DATA");
  const std::string path = testing::ExternalData(
      (dir && *dir ? std::string(dir) : std::string(TESTMAP_SOURCE_DIR) + "/../shared/data") +
      "/pytorch-test-times.json");
  if (path.empty()) GTEST_SKIP() << "no shared data (../shared/data or $TESTMAP_SHARED_DATA)";
  auto records = ReadTestTimes(path);
  std::map<std::string, int> jobs;
  int default_default = 0;
  double sum = 0;
  for (const auto& r : records) {
    ++jobs[r.job];
    if (r.job == "default" && r.config == "default") ++default_default, sum += r.seconds;
    EXPECT_EQ(r.level, TimingLevel::kFile);
    EXPECT_EQ(r.id, r.file);
  }
  EXPECT_EQ(jobs.size(), 46u);
  EXPECT_EQ(default_default, 999);
  EXPECT_NEAR(sum, 113000, 1000);
}

TEST(TestTimesReader, ReadsClassLevelVariant) {
  auto records = ReadTestTimes(
      testing::WriteTempFile("class-times.json",
                             "{\"linux\": {\"default\": {\"test_nn\": {\"TestNN\": 10.5, "
                             "\"TestNNDeviceTypeCPU\": 4}, \"test_ops\": 7}}}"));
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0].id, "test_nn::TestNN");
  EXPECT_EQ(records[0].cls, "TestNN");
  EXPECT_EQ(records[0].level, TimingLevel::kClass);
  EXPECT_EQ(records[0].job, "linux");
  EXPECT_EQ(records[2].level, TimingLevel::kFile);
}

TEST(TestTimesReader, BadInputNamesWhere) {
  std::string path = testing::WriteTempFile("bad-times.json",
                                            "{\"j\": {\"c\": {\n\"test_a\": 1,\n\"test_b\": -3}}}");
  try {
    ReadTestTimes(path);
    FAIL();
  } catch (const core::InputError& e) {
    EXPECT_EQ(e.line(), 3) << e.what();
    EXPECT_NE(std::string(e.what()).find("\"test_b\""), std::string::npos) << e.what();
  }
  EXPECT_THROW(ReadTestTimes(testing::WriteTempFile("shape.json", "{\"j\": [1, 2]}")),
               core::InputError);
  EXPECT_THROW(
      ReadTestTimes(testing::WriteTempFile("shape2.json", "{\"j\": {\"c\": {\"f\": \"x\"}}}")),
      core::InputError);
}

}  // namespace
}  // namespace testmap::timings
