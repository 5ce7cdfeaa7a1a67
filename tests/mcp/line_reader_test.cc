// Line framing of the stdio transport: bounded memory for any input.
#include "mcp/line_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <thread>

namespace testmap::mcp {
namespace {

// The reader on the read end of a pipe whose write end gets `input`.
std::vector<std::string> ReadAll(const std::string& input, size_t max,
                                 std::vector<size_t>* oversized = nullptr) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  std::thread writer([&] {
    size_t done = 0;
    while (done < input.size()) {
      ssize_t n = write(fds[1], input.data() + done, std::min<size_t>(4096, input.size() - done));
      if (n <= 0) break;
      done += n;
    }
    close(fds[1]);
  });
  LineReader reader(fds[0], max);
  std::vector<std::string> lines;
  std::string line;
  size_t skipped;
  while (true) {
    auto s = reader.Next(line, skipped);
    if (s == LineReader::Status::kEof) break;
    if (s == LineReader::Status::kOversized) {
      lines.push_back("<oversized>");
      if (oversized) oversized->push_back(skipped);
    } else {
      lines.push_back(line);
    }
  }
  writer.join();
  close(fds[0]);
  return lines;
}

TEST(LineReader, SplitsOnNewlinesAndSkipsBlankLines) {
  EXPECT_EQ(ReadAll("a\r\n\n  \nb\nc", 100), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(LineReader, DropsAnOversizedLineAndGoesOn) {
  std::vector<size_t> sizes;
  std::string big(300000, 'x');
  auto lines =
      ReadAll("first\n" + big + "\nafter\n" + std::string(101, 'y') + "\nz\n", 100, &sizes);
  EXPECT_EQ(lines, (std::vector<std::string>{"first", "<oversized>", "after", "<oversized>", "z"}));
  EXPECT_EQ(sizes, (std::vector<size_t>{300000, 101}));
}

TEST(LineReader, OversizedLastLineWithoutNewline) {
  std::vector<size_t> sizes;
  auto lines = ReadAll("ok\n" + std::string(5000, 'x'), 1000, &sizes);
  EXPECT_EQ(lines, (std::vector<std::string>{"ok", "<oversized>"}));
  EXPECT_EQ(sizes, (std::vector<size_t>{5000}));
}

TEST(LineReader, ALineOfExactlyTheLimitIsKept) {
  EXPECT_EQ(ReadAll(std::string(100, 'a') + "\n", 100),
            (std::vector<std::string>{std::string(100, 'a')}));
}

}  // namespace
}  // namespace testmap::mcp
