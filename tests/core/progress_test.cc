// core/progress.h on a real pseudo-terminal (openpty), in a pipe, and under
// CI=true: a line with counts and rate on a terminal, nothing otherwise.
// Each case runs the reporter in a forked child whose stderr is the pty's
// (or the pipe's) far end, and reads everything the child wrote.
#include "core/progress.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>
#include <string>
#include <thread>

namespace testmap::core {
namespace {

using namespace std::chrono_literals;

std::string ReadAll(int fd) {
  std::string out;
  char buf[4096];
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, n);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return out;  // EOF, or EIO once the pty's far end is closed
    }
  }
}

// Runs `body` in a child with stdout and stderr on a fresh pty (rows x
// cols) or, with `pty` false, on a pipe; returns what it wrote.
std::string Capture(bool pty, const std::function<void()>& body, bool ci = false, int rows = 24,
                    int cols = 100) {
  int master = -1, slave = -1;
  if (pty) {
    winsize ws{};
    ws.ws_row = rows;
    ws.ws_col = cols;
    EXPECT_EQ(openpty(&master, &slave, nullptr, nullptr, &ws), 0);
  } else {
    int fds[2];
    EXPECT_EQ(pipe(fds), 0);
    master = fds[0];
    slave = fds[1];
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(master);
    dup2(slave, 1);
    dup2(slave, 2);
    close(slave);
    if (ci)
      setenv("CI", "true", 1);
    else
      unsetenv("CI");
    body();
    _exit(0);
  }
  close(slave);
  std::string out = ReadAll(master);
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  return out;
}

void CountFiles() {
  Progress p("testmap scan:", "files", 60, {.interval = 0ms});
  for (int i = 0; i < 60; ++i) {
    p.Add(1);
    std::this_thread::sleep_for(10ms);
  }
}

TEST(Progress, OnATerminalALineWithCountsAndRate) {
  std::string out = Capture(true, CountFiles);
  EXPECT_NE(out.find("\rtestmap scan: 0/60 files\033[K"), std::string::npos) << out;
  EXPECT_NE(out.find("\rtestmap scan: 30/60 files"), std::string::npos) << out;
  EXPECT_NE(out.find("testmap scan: 60/60 files · "), std::string::npos) << out;
  EXPECT_NE(out.find("/s"), std::string::npos) << out;
  // Redrawn in place, never a new line, and cleared at the end.
  EXPECT_EQ(out.find('\n'), std::string::npos) << out;
  EXPECT_EQ(out.substr(out.size() - 4), std::string("\r\033[K"));
}

TEST(Progress, SilentInAPipe) { EXPECT_EQ(Capture(false, CountFiles), ""); }

TEST(Progress, SilentUnderCi) { EXPECT_EQ(Capture(true, CountFiles, /*ci=*/true), ""); }

TEST(Progress, LongLinesAreCutToTheTerminalWidth) {
  std::string out = Capture(
      true,
      [] {
        Progress p(std::string(200, 'x'), "files", 3);
        p.Finish();
      },
      false, 24, 40);
  EXPECT_NE(out.find("\r" + std::string(39, 'x') + "\033[K"), std::string::npos) << out;
  EXPECT_EQ(out.find(std::string(40, 'x')), std::string::npos) << out;
}

TEST(Progress, ManyThreadsCountEverything) {
  std::string out = Capture(true, [] {
    Progress p("testmap ingest: reading", "files", 8000, {.interval = 0ms});
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t)
      threads.emplace_back([&] {
        for (int i = 0; i < 1000; ++i) p.Add(1);
      });
    for (auto& t : threads) t.join();
    if (p.done() != 8000) _exit(3);
  });
  EXPECT_NE(out.find("testmap ingest: reading"), std::string::npos) << out;
}

TEST(Progress, PinnedKeepsTheLineOnTheLastRowBelowAChildsOutput) {
  std::string out = Capture(true, [] {
    Progress p("testmap trace:", "tests", 0, {.pinned = true, .interval = 0ms});
    for (int i = 1; i <= 3; ++i) {
      std::string line = "pytest output " + std::to_string(i) + "\n";
      (void)!write(1, line.data(), line.size());  // what pytest would write
      p.Set(i);
    }
  });
  // Rows 1-23 scroll; the line is drawn on row 24 with the cursor saved
  // and restored around it; at the end the whole screen scrolls again.
  EXPECT_NE(out.find("\0337\033[1;23r\0338"), std::string::npos) << out;
  EXPECT_NE(out.find("\0337\033[24;1Htestmap trace: 3 tests\033[K\0338"), std::string::npos) << out;
  EXPECT_NE(out.find("pytest output 3"), std::string::npos) << out;
  const std::string reset = "\0337\033[r\033[24;1H\033[K\0338";
  EXPECT_EQ(out.substr(out.size() - reset.size()), reset);
}

}  // namespace
}  // namespace testmap::core
