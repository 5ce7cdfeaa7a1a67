// Output that cannot be written is an error in every way testmap writes:
// CLI11's own help and --version as well as a command's answer, in each
// format. stdout is /dev/full (every write fails with ENOSPC, as on a full
// disk); the same command to /dev/null is the control that exits 0.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

TEST(WriteErrors, EveryKindOfOutputExitsOneOnAFullDisk) {
  const std::string plan =
      "plan " + SourcePath("tests/timings/data/pytest_xunit1.xml") + " --splits 2";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--version", "testmap: error: cannot write the output"},
      {"--help", "testmap: error: cannot write the output"},
      {"plan --help", "testmap: error: cannot write the output"},
      {plan, "testmap plan: error: cannot write the output"},
      {plan + " --format json", "testmap plan: error: cannot write the output"},
      {plan + " --format nodeids --split 1", "testmap plan: error: cannot write the output"},
  };
  for (const auto& [args, message] : cases) {
    SCOPED_TRACE(args);
    CommandResult ok = TestmapShell(args + " > /dev/null");
    ASSERT_EQ(ok.rc, 0) << ok.err;
    CommandResult full = TestmapShell(args + " > /dev/full");
    EXPECT_EQ(full.rc, 1) << full.err;
    EXPECT_NE(full.err.find(message), std::string::npos) << full.err;
  }
}

}  // namespace
}  // namespace testmap::testing
