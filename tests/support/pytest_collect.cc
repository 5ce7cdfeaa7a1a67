#include "tests/support/pytest_collect.h"

#include <gtest/gtest.h>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {

std::set<std::string> PytestCollects(const std::string& dir) {
  auto truth = Python(
      {"-W", "ignore", "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, dir);
  EXPECT_EQ(truth.rc, 0) << truth.out << truth.err;
  std::set<std::string> collected;
  for (const auto& line : Lines(truth.out))
    if (line.find("::") != std::string::npos) collected.insert(line);
  return collected;
}

size_t ExpectScanCollectsAsPytest(const std::string& example) {
  std::string dir = SourcePath(example);
  std::set<std::string> collected = PytestCollects(dir);
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, dir);
  EXPECT_EQ(scan.rc, 0) << scan.err;
  auto lines = Lines(scan.out);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()), collected);
  return collected.size();
}

}  // namespace testmap::testing
