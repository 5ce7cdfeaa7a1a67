// `testmap scan` as a user runs it: bad input, exit status, output formats
// and the content-keyed cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/analyzers/python/test_util.h"

namespace {

using testmap::testing::RunCommand;
using testmap::testing::TempDir;

const std::string kBin = std::string(TESTMAP_BINARY_DIR) + "/bin/testmap";

const char* kGood = R"(import unittest
from torch.testing._internal.common_utils import TestCase, parametrize, instantiate_parametrized_tests

class TestGood(TestCase):
    @parametrize("n", [1, 2])
    def test_n(self, n):
        pass

instantiate_parametrized_tests(TestGood)
)";

// CPython's own line for a syntax error: independent of tree-sitter.
int PythonSyntaxErrorLine(const std::string& file) {
  std::string out =
      RunCommand(std::string("'") + TESTMAP_PYTHON +
                 "' -c 'import sys\ntry:\n compile(open(sys.argv[1]).read(), \"f\", \"exec\")\n"
                 "except SyntaxError as e:\n print(e.lineno)' '" +
                 file + "'");
  return std::atoi(out.c_str());
}

TEST(ScanCommand, BadFilesAreReportedWithFileAndLineAndTheRestIsScanned) {
  TempDir d;
  d.Write("test_good.py", kGood);
  std::string bad = d.Write("test_syntax.py", "import torch\n\n\ndef test_x(:\n    pass\n");
  d.Write("test_latin.py", std::string("def test_\xe9():\n    pass\n"));
  d.Write("test_empty.py", "");
  std::filesystem::create_directory_symlink(d.path, d.path / "loop");
  int status;
  std::string cmd = "'" + kBin + "' scan '" + d.path.string() +
                    "' --no-cache --snapshot /dev/null --format jsonl";
  std::string out = RunCommand(cmd + " 2>'" + (d.path / "err").string() + "'", &status);
  std::string err = RunCommand("cat '" + (d.path / "err").string() + "'");
  EXPECT_EQ(status, 1) << err;
  std::istringstream lines(out);
  std::vector<std::string> ids;
  for (std::string line; std::getline(lines, line);)
    ids.push_back(nlohmann::json::parse(line)["nodeid"]);
  EXPECT_EQ(ids, (std::vector<std::string>{"test_good.py::TestGood::test_n_n_1",
                                           "test_good.py::TestGood::test_n_n_2"}));
  int line = PythonSyntaxErrorLine(bad);
  ASSERT_GT(line, 0);
  EXPECT_NE(err.find("test_syntax.py:" + std::to_string(line) + ": error: syntax error"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("test_latin.py:1: error: not valid UTF-8"), std::string::npos) << err;
  EXPECT_NE(err.find("symlink loop"), std::string::npos) << err;
  EXPECT_EQ(err.find("test_empty.py"), std::string::npos) << "an empty file is no error: " << err;
  EXPECT_NE(err.find("2 file(s) skipped"), std::string::npos) << err;
}

TEST(ScanCommand, CleanTreeExitsZeroAndFormatsAgree) {
  TempDir d;
  d.Write("test_good.py", kGood);
  int status;
  std::string base =
      "'" + kBin + "' scan '" + d.path.string() + "' --no-cache --snapshot /dev/null";
  std::string ids = RunCommand(base + " --format nodeids 2>/dev/null", &status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(ids, "test_good.py::TestGood::test_n_n_1\ntest_good.py::TestGood::test_n_n_2\n");
  auto doc = nlohmann::json::parse(RunCommand(base + " --format json 2>/dev/null"));
  ASSERT_EQ(doc["tests"].size(), 2u);
  EXPECT_EQ(doc["tests"][1]["generic_id"], "test_good.py::TestGood::test_n");
  EXPECT_EQ(doc["tests"][1]["params"]["values"]["n"], "2");
  std::string table = RunCommand(base + " 2>/dev/null");
  EXPECT_NE(table.find("2 tests in 1 files"), std::string::npos) << table;
}

TEST(ScanCommand, UnknownOptionIsAUsageError) {
  int status;
  RunCommand("'" + kBin + "' scan --bogus . 2>/dev/null", &status);
  EXPECT_NE(status, 0);
  EXPECT_NE(status, 1);
}

TEST(ScanCommand, CacheServesUnchangedFilesAndRescansChangedOnes) {
  TempDir d, cache;
  d.Write("test_a.py", kGood);
  d.Write("test_b.py", kGood);
  std::string base = "'" + kBin + "' scan '" + d.path.string() +
                     "' --snapshot /dev/null --cache-dir '" + cache.path.string() +
                     "' --format nodeids 2>/dev/null";
  std::string first = RunCommand(base);
  EXPECT_EQ(RunCommand(base), first);
  // Change one file: its ids change, the other's are still served.
  d.Write("test_b.py", std::string(kGood) +
                           "\nclass TestMore(TestCase):\n    def test_m(self):\n        pass\n");
  std::string third = RunCommand(base);
  EXPECT_NE(third.find("test_b.py::TestMore::test_m"), std::string::npos) << third;
  EXPECT_NE(third.find("test_a.py::TestGood::test_n_n_1"), std::string::npos) << third;
}

}  // namespace
