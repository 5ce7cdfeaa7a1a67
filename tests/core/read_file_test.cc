#include "core/read_file.h"

#include <gtest/gtest.h>

#include "core/errors.h"
#include "tests/support/temp_dir.h"

namespace testmap::core {
namespace {

std::string ErrorOf(const std::string& path, uint64_t limit = kDefaultMaxInputBytes) {
  try {
    ReadInputFile(path, limit);
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    return e.what();
  }
  return "";
}

TEST(ReadInputFile, ReadsBytesExactly) {
  testing::TempDir d;
  std::string bytes("a\0b\nc", 5);
  EXPECT_EQ(ReadInputFile(d.Write("f", bytes)), bytes);
}

TEST(ReadInputFile, DirectoriesMissingFilesAndLimitsAreInputErrors) {
  testing::TempDir d;
  EXPECT_NE(ErrorOf(d.path().string()).find("is a directory"), std::string::npos);
  EXPECT_NE(ErrorOf(d.path().string() + "/missing").find("cannot open"), std::string::npos);
  std::string big = d.Write("big", std::string(100, 'x'));
  EXPECT_NE(ErrorOf(big, 99).find("more than the input limit of 99 bytes"), std::string::npos);
  EXPECT_EQ(ReadInputFile(big, 100).size(), 100u);
}

TEST(ReadInputFile, EndlessDevicesStopAtTheLimit) {
  // `ingest /dev/zero` must stop, not grow until memory runs out.
  EXPECT_NE(ErrorOf("/dev/zero", 1 << 20).find("holds more than the input limit"),
            std::string::npos);
}

}  // namespace
}  // namespace testmap::core
