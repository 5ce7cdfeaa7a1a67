// The progress line where it is wired (core/progress.h): `testmap ingest`
// and `testmap trace` run on a real pseudo-terminal show it; the same
// commands in a pipe (tests/support's RunCommand: files) or under CI=true
// show nothing of it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

namespace fs = std::filesystem;

// `argv` with stdout and stderr on a fresh 24x100 pty; everything it wrote.
CommandResult OnTerminal(const std::vector<std::string>& argv, const std::string& cwd = "",
                         const std::map<std::string, std::string>& env = {}) {
  int master = -1;
  winsize ws{};
  ws.ws_row = 24;
  ws.ws_col = 100;
  pid_t pid = forkpty(&master, nullptr, nullptr, &ws);
  if (pid == 0) {
    if (!cwd.empty() && chdir(cwd.c_str()) != 0) _exit(126);
    unsetenv("CI");
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  CommandResult r;
  char buf[4096];
  for (;;) {
    ssize_t n = read(master, buf, sizeof buf);
    if (n > 0)
      r.out.append(buf, n);
    else if (!(n < 0 && errno == EINTR))
      break;  // EIO: the child closed the terminal
  }
  close(master);
  int status = 0;
  waitpid(pid, &status, 0);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

TEST(ProgressWiring, IngestShowsItsFilesOnATerminalOnly) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string dir = ScratchDir("ingest-progress");
  std::vector<std::string> args = {TestmapBin(), "ingest", "--index",
                                   dir + "/a",   ev.scan,  ev.trace};
  CommandResult tty = OnTerminal(args);
  ASSERT_EQ(tty.rc, 0) << tty.out;
  EXPECT_NE(tty.out.find("\rtestmap ingest: reading 0 files"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\rtestmap ingest: writing " + dir + "/a"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\r\033[Kingested 2 file(s)"), std::string::npos) << tty.out;

  args[3] = dir + "/b";
  CommandResult piped = RunCommand(args);
  ASSERT_EQ(piped.rc, 0) << piped.err;
  EXPECT_EQ(piped.err, "");
  args[3] = dir + "/c";
  CommandResult ci = OnTerminal(args, "", {{"CI", "true"}});
  ASSERT_EQ(ci.rc, 0) << ci.out;
  EXPECT_EQ(ci.out.find("testmap ingest: reading"), std::string::npos) << ci.out;
  EXPECT_EQ(ci.out.find('\r' + std::string("testmap")), std::string::npos) << ci.out;
}

TEST(ProgressWiring, ScanShowsItsFilesOnATerminalOnly) {
  std::vector<std::string> args = {TestmapBin(), "scan", SourcePath("examples/suite"),
                                   "--torch-python", TESTMAP_PYTHON, "--format", "nodeids"};
  CommandResult tty = OnTerminal(args);
  ASSERT_EQ(tty.rc, 0) << tty.out;
  EXPECT_NE(tty.out.find("\rtestmap scan: 0 files\033[K"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\r\033[K"), std::string::npos) << tty.out;
  CommandResult piped = RunCommand(args);
  ASSERT_EQ(piped.rc, 0) << piped.err;
  EXPECT_EQ(piped.err.find("testmap scan: "), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;
}

TEST(ProgressWiring, TraceCountsFinishedTestsOnTheLastRowBelowPytest) {
  TempDir work;
  // The second test sleeps, so that the line shows the first one finished
  // while pytest still runs.
  work.Write("test_slow.py",
             "import time\n"
             "import torch\n\n"
             "def test_first():\n"
             "    assert (torch.ones(2) + 1).sum().item() == 4\n\n"
             "def test_second():\n"
             "    time.sleep(1.0)\n");
  std::string out = (work.path() / "traces").string();
  CommandResult tty = OnTerminal({TestmapBin(), "trace", "--out", out, "--", "pytest", "-q", "-p",
                                  "no:cacheprovider", "test_slow.py"},
                                 work.path().string());
  ASSERT_EQ(tty.rc, 0) << tty.out;
  // Rows 1-23 scroll (pytest's output), row 24 holds the line.
  EXPECT_NE(tty.out.find("\0337\033[1;23r\0338"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find("\0337\033[24;1Htestmap trace: finished 1 tests"), std::string::npos)
      << tty.out;
  EXPECT_NE(tty.out.find("2 passed"), std::string::npos) << tty.out;
  // The terminal gets its last row back before the summary.
  size_t reset = tty.out.find("\0337\033[r\033[24;1H\033[K\0338");
  ASSERT_NE(reset, std::string::npos) << tty.out;
  EXPECT_LT(reset, tty.out.find("testmap trace: 2 tests (2 passed)")) << tty.out;

  // In a pipe the same command shows nothing of it: the reporter decides
  // (Progress.SilentInAPipe, tests/core), and `trace` then does not even
  // poll its shards.
}

}  // namespace
}  // namespace testmap::testing
