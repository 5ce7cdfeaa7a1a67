// `testmap scan` as a user runs it: bad input, exit status, output formats
// and the content-keyed cache.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace {

using testmap::testing::Python;
using testmap::testing::TempDir;
using testmap::testing::Testmap;

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
  auto r = Python({"-c",
                   "import sys\ntry:\n compile(open(sys.argv[1]).read(), 'f', 'exec')\n"
                   "except SyntaxError as e:\n print(e.lineno)",
                   file});
  return std::atoi(r.out.c_str());
}

TEST(ScanCommand, BadFilesAreReportedWithFileAndLineAndTheRestIsScanned) {
  TempDir d;
  d.Write("test_good.py", kGood);
  std::string bad = d.Write("test_syntax.py", "import torch\n\n\ndef test_x(:\n    pass\n");
  d.Write("test_latin.py", std::string("def test_\xe9():\n    pass\n"));
  d.Write("test_empty.py", "");
  std::filesystem::create_directory_symlink(d.path(), d.path() / "loop");
  auto r = Testmap({"scan", d.path().string(), "--no-cache", "--format", "jsonl"});
  const std::string& err = r.err;
  EXPECT_EQ(r.rc, 1) << err;
  std::istringstream lines(r.out);
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
  std::vector<std::string> base = {"scan", d.path().string(), "--no-cache"};
  auto with = [&](std::vector<std::string> more) {
    more.insert(more.begin(), base.begin(), base.end());
    return Testmap(more);
  };
  auto ids = with({"--format", "nodeids"});
  EXPECT_EQ(ids.rc, 0) << ids.err;
  EXPECT_EQ(ids.out, "test_good.py::TestGood::test_n_n_1\ntest_good.py::TestGood::test_n_n_2\n");
  auto doc = nlohmann::json::parse(with({"--format", "json"}).out);
  ASSERT_EQ(doc["tests"].size(), 2u);
  EXPECT_EQ(doc["tests"][1]["generic_id"], "test_good.py::TestGood::test_n");
  EXPECT_EQ(doc["tests"][1]["params"]["values"]["n"], "2");
  std::string table = with({}).out;
  EXPECT_NE(table.find("2 tests in 1 files"), std::string::npos) << table;
}

TEST(ScanCommand, UnknownOptionIsAUsageError) {
  auto r = Testmap({"scan", "--bogus", "."});
  EXPECT_EQ(r.rc, 2) << r.err;
}

TEST(ScanCommand, CacheServesUnchangedFilesAndRescansChangedOnes) {
  TempDir d, cache;
  d.Write("test_a.py", kGood);
  d.Write("test_b.py", kGood);
  auto scan = [&] {
    return Testmap({"scan", d.path().string(), "--cache-dir", cache.path().string(), "--format",
                    "nodeids"})
        .out;
  };
  std::string first = scan();
  EXPECT_EQ(scan(), first);
  // Change one file: its ids change, the other's are still served.
  d.Write("test_b.py", std::string(kGood) +
                           "\nclass TestMore(TestCase):\n    def test_m(self):\n        pass\n");
  std::string third = scan();
  EXPECT_NE(third.find("test_b.py::TestMore::test_m"), std::string::npos) << third;
  EXPECT_NE(third.find("test_a.py::TestGood::test_n_n_1"), std::string::npos) << third;
}

}  // namespace
