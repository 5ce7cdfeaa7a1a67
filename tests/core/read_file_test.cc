#include "core/read_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

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

TEST(ReadInputFile, EndlessDevicesStopAtTheirFirstNulByte) {
  // `ingest /dev/zero` once grew to 4 GiB before the limit stopped it; no
  // text format holds a NUL, so a stream with one stops at once.
  EXPECT_EQ(ErrorOf("/dev/zero"), "/dev/zero: holds a NUL byte at offset 0: not a text file");
}

TEST(ReadInputFile, EndlessTextStreamsStopAtTheLimit) {
  // An endless pipe of text (`yes | testmap ingest /dev/stdin`): the limit.
  signal(SIGPIPE, SIG_IGN);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([fd = fds[1]] {
    std::string chunk(4096, 'x');
    while (write(fd, chunk.data(), chunk.size()) > 0) {
    }
    close(fd);
  });
  std::string path = "/dev/fd/" + std::to_string(fds[0]);
  EXPECT_NE(ErrorOf(path, 1 << 20).find("holds more than the input limit of 1048576 bytes"),
            std::string::npos);
  close(fds[0]);
  writer.join();
}

}  // namespace
}  // namespace testmap::core
