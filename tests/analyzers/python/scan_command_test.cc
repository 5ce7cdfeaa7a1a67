// `testmap scan` as a user runs it: bad input, exit status, output formats
// and the content-keyed cache.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/command.h"
#include "tests/support/pytest_collect.h"
#include "tests/support/temp_dir.h"

namespace {

namespace fs = std::filesystem;
using testmap::testing::Lines;
using testmap::testing::Python;
using testmap::testing::ReadFile;
using testmap::testing::RunCommand;
using testmap::testing::TempDir;
using testmap::testing::Testmap;
using testmap::testing::TestmapBin;
using testmap::testing::TestmapShell;

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

// ---- issue 14: nothing wrong or partial exits 0 -----------------------------

const char* kPlain = "def test_a():\n    pass\n";

// A Python without torch: the configured one with site-packages off.
std::string PythonWithoutTorch(const TempDir& d) {
  std::string path = d.Write("venv/bin/python",
                             std::string("#!/bin/sh\nexec '") + TESTMAP_PYTHON + "' -S \"$@\"\n");
  fs::permissions(path, fs::perms::owner_all | fs::perms::group_read | fs::perms::others_read |
                            fs::perms::group_exec | fs::perms::others_exec);
  EXPECT_NE(RunCommand({path, "-c", "import torch"}).rc, 0) << "the wrapper still has torch";
  return path;
}

TEST(ScanCommand, MissingPathIsAPartialAnswer) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  auto r = Testmap({"scan", "--no-cache", "--format", "nodeids", "test_a.py", "nope"},
                   d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "test_a.py::test_a\n");
  EXPECT_NE(r.err.find("nope: no such file or directory"), std::string::npos) << r.err;
}

TEST(ScanCommand, UnreadableDirectoryIsAPartialAnswer) {
  TempDir d;
  d.Write("ok/test_a.py", kPlain);
  d.Write("locked/test_b.py", kPlain);
  // Root reads any directory: run the scan as nobody then, which needs to
  // reach the tree and a snapshot it may read.
  bool root = geteuid() == 0;
  std::string snapshot =
      d.Write("snapshot.json", ReadFile(testmap::torch_snapshot::EnsureTorchSnapshot(
                                   TESTMAP_PYTHON, testmap::torch_snapshot::DefaultCacheDir())));
  for (const auto& p : {d.path(), d.path() / "ok", d.path() / "locked"})
    fs::permissions(p, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                           fs::perms::others_read | fs::perms::others_exec);
  for (const char* f : {"ok/test_a.py", "locked/test_b.py", "snapshot.json"})
    fs::permissions(d.path() / f, fs::perms::owner_read | fs::perms::owner_write |
                                      fs::perms::group_read | fs::perms::others_read);
  fs::permissions(d.path() / "locked", fs::perms::none);
  std::vector<std::string> argv = {TestmapBin(), "scan",       "--no-cache", "--format",
                                   "nodeids",    "--snapshot", snapshot,     d.path().string()};
  if (root)
    argv.insert(argv.begin(), {"setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"});
  auto r = RunCommand(argv, d.path().string(), {{"HOME", d.path().string()}});
  fs::permissions(d.path() / "locked", fs::perms::owner_all);
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "ok/test_a.py::test_a\n") << r.err;
  EXPECT_NE(r.err.find("locked: cannot list: Permission denied"), std::string::npos) << r.err;
}

TEST(ScanCommand, BadSnapshotIsBadInputWithItsName) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  std::string garbage = d.Write("garbage.json", "{\"format\": \"something else\"}");
  auto r = Testmap({"scan", "--no-cache", "--snapshot", garbage, "."}, d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find(garbage + ": not a torch snapshot"), std::string::npos) << r.err;
  r = Testmap({"scan", "--no-cache", "--snapshot", "missing.json", "."}, d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("missing.json: cannot read"), std::string::npos) << r.err;
}

TEST(ScanCommand, TorchPythonThatCannotServeIsBadInputInOneLine) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  std::string no_torch = PythonWithoutTorch(d);
  for (const std::string& python : {d.path().string() + "/missing/python", no_torch}) {
    SCOPED_TRACE(python);
    auto r = Testmap({"scan", "--no-cache", "--torch-python", python, "."}, d.path().string());
    EXPECT_EQ(r.rc, 1) << r.err;
    EXPECT_EQ(Lines(r.err).size(), 1u) << r.err;
    EXPECT_NE(r.err.find(python), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
  }
}

const char* kNeedsMetadata = R"(import torch
from torch.testing._internal.common_utils import TestCase, parametrize, instantiate_parametrized_tests

class TestCumsum(TestCase):
    @parametrize("dtype", [torch.float32])
    def test_cumsum_dtype(self, dtype):
        pass

    def test_plain(self):
        pass

instantiate_parametrized_tests(TestCumsum)
)";

TEST(ScanCommand, DefaultPythonIsTheActiveVirtualenvAndWithoutTorchTheAnswerIsPartial) {
  TempDir d;
  d.Write("test_cumsum.py", kNeedsMetadata);
  std::string no_torch = PythonWithoutTorch(d);
  std::map<std::string, std::string> env = {{"VIRTUAL_ENV", (d.path() / "venv").string()},
                                            {"TESTMAP_CACHE_DIR", (d.path() / "cache").string()}};
  auto r = Testmap({"scan", "--no-cache", "--format", "nodeids", "."}, d.path().string(), env);
  EXPECT_EQ(r.rc, 1) << r.err;
  // Without torch's metadata torch.float32 is unknown: no `dtype0` id.
  EXPECT_EQ(r.out, "test_cumsum.py::TestCumsum::test_plain\n") << r.err;
  EXPECT_NE(r.err.find(no_torch + " (the active virtualenv ($VIRTUAL_ENV)): " + no_torch +
                       " has no torch installed; pass --torch-python"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("Traceback"), std::string::npos) << r.err;
  // With torch (the configured Python as the virtualenv's): pytest's id.
  std::string venv = d.Write("torchenv/bin/python",
                             std::string("#!/bin/sh\nexec '") + TESTMAP_PYTHON + "' \"$@\"\n");
  fs::permissions(venv, fs::perms::owner_all);
  env["VIRTUAL_ENV"] = (d.path() / "torchenv").string();
  r = Testmap({"scan", "--no-cache", "--format", "nodeids", "."}, d.path().string(), env);
  EXPECT_EQ(r.rc, 0) << r.err;
  auto truth =
      Python({"-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, d.path().string());
  std::vector<std::string> expected;
  for (const auto& line : Lines(truth.out))
    if (line.find("::") != std::string::npos) expected.push_back(line);
  EXPECT_EQ(Lines(r.out), expected);
  EXPECT_NE(r.out.find("test_cumsum_dtype_float32"), std::string::npos) << r.out;
}

TEST(ScanCommand, NoCacheStillTakesTheSnapshotFromTheNamedCacheDir) {
  // --no-cache caches no file's result, but the torch snapshot (seconds of
  // importing torch to make) still lives in --cache-dir, not the default.
  TempDir d;
  d.Write("test_cumsum.py", kNeedsMetadata);
  fs::path named = d.path() / "named", fallback = d.path() / "default";
  fs::path real = fs::path(testmap::torch_snapshot::EnsureTorchSnapshot(
                               TESTMAP_PYTHON, testmap::torch_snapshot::DefaultCacheDir()))
                      .parent_path();
  fs::create_directories(named);
  fs::copy(real, named / "torch-snapshots", fs::copy_options::recursive);
  auto r = Testmap({"scan", "--no-cache", "--cache-dir", named.string(), "--torch-python",
                    TESTMAP_PYTHON, "--format", "nodeids", "."},
                   d.path().string(), {{"TESTMAP_CACHE_DIR", fallback.string()}});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("test_cumsum_dtype_float32"), std::string::npos) << r.out;
  EXPECT_FALSE(fs::exists(fallback)) << "the snapshot was made in the default cache";
  EXPECT_FALSE(fs::exists(named / "scan")) << "--no-cache cached results";
  EXPECT_FALSE(fs::exists(named / "scan-output")) << "--no-cache cached the output";
}

TEST(ScanCommand, ImportThePinnedTorchLacksCollectsNothing) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  d.Write("test_bad.py",
          "from torch.testing._internal.common_utils import TestCase, no_such_helper\n\n"
          "class TestBad(TestCase):\n    def test_x(self):\n        pass\n");
  auto truth =
      Python({"-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, d.path().string());
  ASSERT_EQ(truth.out.find("test_bad.py::"), std::string::npos) << truth.out;
  auto r =
      Testmap({"scan", "--no-cache", "--torch-python", TESTMAP_PYTHON, "--format", "nodeids", "."},
              d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "test_a.py::test_a\n");
  EXPECT_NE(r.err.find("test_bad.py:1: error: cannot import name 'no_such_helper'"),
            std::string::npos)
      << r.err;
}

// Runs testmap under `ulimit -v` (KiB), as a user's shell would.
testmap::testing::CommandResult TestmapLimited(const std::string& cwd, long kib,
                                               const std::string& args) {
  return RunCommand(
      {"sh", "-c", "ulimit -v " + std::to_string(kib) + "; exec '" + TestmapBin() + "' " + args},
      cwd);
}

TEST(ScanCommand, FiftyThousandParametersFitInLittleMemory) {
  TempDir d;
  std::string values;
  for (int i = 0; i < 50000; ++i) values += std::to_string(i) + ", ";
  d.Write("test_big.py",
          "from torch.testing._internal.common_utils import TestCase, parametrize, "
          "instantiate_parametrized_tests\n\nclass TestBig(TestCase):\n"
          "    @parametrize(\"x\", [" +
              values +
              "])\n    def test_x(self, x):\n        pass\n\n"
              "instantiate_parametrized_tests(TestBig)\n");
  // Each record used to carry the whole 340 kB decorator: 17 GB.
  auto r = TestmapLimited(
      d.path().string(), 4 << 20,
      "scan --no-cache --torch-python '" + std::string(TESTMAP_PYTHON) + "' --format jsonl -j 2 .");
  ASSERT_EQ(r.rc, 0) << r.err.substr(0, 2000);
  auto lines = Lines(r.out);
  ASSERT_EQ(lines.size(), 50000u);
  std::set<std::string> ids;
  for (const auto& line : lines) {
    auto j = nlohmann::json::parse(line);
    ids.insert(j["nodeid"].get<std::string>());
    std::string decorator = j["decorators"][0];
    EXPECT_LE(decorator.size(), 240u);
    EXPECT_EQ(decorator.rfind("parametrize(\"x\", [0, 1, 2", 0), 0u) << decorator;
  }
  for (int i = 0; i < 50000; ++i)
    EXPECT_TRUE(ids.count("test_big.py::TestBig::test_x_x_" + std::to_string(i))) << i;
}

TEST(ScanCommand, OversizedFileIsRefusedBeforeReading) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  std::string big = "def test_big():\n    pass\n\n";
  big += "# " + std::string(50 << 20, 'x') + "\n";
  d.Write("test_big.py", big);
  // 50 MB parsed would take over a GB; refused, it takes nothing.
  auto r = TestmapLimited(d.path().string(), 1 << 20, "scan --no-cache --format nodeids .");
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "test_a.py::test_a\n");
  EXPECT_NE(r.err.find("test_big.py:0: error: " + std::to_string(big.size()) +
                       " bytes, over the 8388608-byte limit"),
            std::string::npos)
      << r.err;
  // The limit is a flag.
  d.Write("test_big.py", "def test_big():\n    pass\n# " + std::string(2 << 20, 'x') + "\n");
  r = Testmap({"scan", "--no-cache", "--format", "nodeids", "--max-file-size", "1m", "."},
              d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  r = Testmap({"scan", "--no-cache", "--format", "nodeids", "--max-file-size", "3m", "."},
              d.path().string());
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "test_a.py::test_a\ntest_big.py::test_big\n");
}

TEST(ScanCommand, AbsurdNestingIsRefusedNotRecursedInto) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  std::string deep =
      "def test_deep():\n    x = " + std::string(20000, '[') + std::string(20000, ']') + "\n";
  std::string file = d.Write("test_deep.py", deep);
  // CPython refuses it too.
  EXPECT_NE(Python({"-c", "compile(open('" + file + "').read(), 'f', 'exec')"}).rc, 0);
  auto r = Testmap({"scan", "--no-cache", "--format", "nodeids", "."}, d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "test_a.py::test_a\n");
  EXPECT_NE(r.err.find("test_deep.py:0: error: nested more than 1000 levels"), std::string::npos)
      << r.err;
}

TEST(ScanCommand, EmptyNodeidsAnswerExitsFour) {
  TempDir d;
  d.Write("test_none.py", "def helper():\n    pass\n");
  auto r = Testmap({"scan", "--no-cache", "--format", "nodeids", "."}, d.path().string());
  EXPECT_EQ(r.rc, 4) << r.err;
  EXPECT_EQ(r.out, "");
  // pytest agrees there is nothing (its own code for that is 5).
  EXPECT_EQ(
      Python({"-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, d.path().string())
          .rc,
      5);
  // Other formats answer "no tests" as an answer.
  EXPECT_EQ(Testmap({"scan", "--no-cache", "--format", "jsonl", "."}, d.path().string()).rc, 0);
}

TEST(ScanCommand, WriteErrorsExitNonZero) {
  TempDir d;
  d.Write("test_a.py", kPlain);
  auto r = TestmapShell("scan --no-cache --format nodeids . > /dev/full", d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("cannot write the output"), std::string::npos) << r.err;
}

// A warm re-scan sends the cached answer straight from the cache entry to
// stdout (output_bytes.h): every kind of stdout gets the bytes a fresh scan
// prints, and one that cannot take them is an error, as on a cold scan.
TEST(ScanCommand, ACachedAnswerIsTheFreshBytesWhereverStdoutGoes) {
  TempDir d, cache, out;
  std::string values;  // an answer of megabytes: more than one chunk of a copy
  for (int i = 0; i < 20000; ++i) values += std::to_string(i) + ", ";
  d.Write("test_big.py", "import pytest\n\n@pytest.mark.parametrize('x', [" + values +
                             "])\ndef test_x(x):\n    pass\n");
  // Files written in the last seconds are never served whole (racy stat).
  fs::last_write_time(d.path() / "test_big.py",
                      fs::file_time_type::clock::now() - std::chrono::hours(1));
  auto scan = [&](const std::string& redirect) {
    return TestmapShell(
        "scan --cache-dir '" + cache.path().string() + "' --format jsonl . " + redirect,
        d.path().string());
  };
  auto fresh = Testmap({"scan", "--no-cache", "--format", "jsonl", "."}, d.path().string());
  ASSERT_EQ(fresh.rc, 0) << fresh.err;
  ASSERT_EQ(Lines(fresh.out).size(), 20000u);
  ASSERT_GT(fresh.out.size(), size_t{1} << 20);
  const std::string file = (out.path() / "file").string();
  ASSERT_EQ(scan("> '" + file + "'").rc, 0);  // fills the cache
  ASSERT_EQ(fs::directory_iterator(cache.path() / "scan-output") != fs::directory_iterator(), true)
      << "no tree output cached: the warm scans below would not be served from it";
  ASSERT_EQ(ReadFile(file), fresh.out);

  ASSERT_EQ(scan("> '" + file + "'").rc, 0);  // a regular file
  EXPECT_EQ(ReadFile(file), fresh.out);
  auto piped = scan("| cat");  // a pipe
  EXPECT_EQ(piped.rc, 0) << piped.err;
  EXPECT_EQ(piped.out, fresh.out);
  d.Write("appended", "before\n");  // O_APPEND, where sendfile(2) refuses
  ASSERT_EQ(scan(">> '" + (d.path() / "appended").string() + "'").rc, 0);
  EXPECT_EQ(ReadFile((d.path() / "appended").string()), "before\n" + fresh.out);
  auto full = scan("> /dev/full");
  EXPECT_EQ(full.rc, 1) << full.err;
  EXPECT_NE(full.err.find("cannot write the output"), std::string::npos) << full.err;
}

TEST(ScanCommand, SetattrCodeItCannotFollowMakesAPartialAnswerThatSaysWhere) {
  TempDir d;
  d.Write("test_gen.py", R"(from torch.testing._internal.common_utils import TestCase

class TestGen(TestCase):
    pass

def add_tests():
    for name in ["a", "b"]:
        setattr(TestGen, "test_" + name, lambda self: None)
    i = 0
    while i < 2:
        setattr(TestGen, "test_w" + str(i), lambda self: None)
        i += 1

add_tests()
)");
  auto truth =
      Python({"-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, d.path().string());
  auto r =
      Testmap({"scan", "--no-cache", "--torch-python", TESTMAP_PYTHON, "--format", "nodeids", "."},
              d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  // What it followed is right; what it could not is named, not guessed.
  EXPECT_EQ(r.out, "test_gen.py::TestGen::test_a\ntest_gen.py::TestGen::test_b\n");
  for (const auto& id : Lines(r.out)) EXPECT_NE(truth.out.find(id), std::string::npos) << id;
  EXPECT_NE(truth.out.find("test_gen.py::TestGen::test_w1"), std::string::npos) << truth.out;
  EXPECT_NE(r.err.find("test_gen.py:10: warning: tests made at import time by `add_tests()` may be "
                       "missing: cannot follow a while_statement here"),
            std::string::npos)
      << r.err;
}

}  // namespace

namespace {

using testmap::testing::ExpectScanCollectsAsPytest;
using testmap::testing::PytestCollects;

// Parameter values that are names from torch and standard modules
// (torch.channels_last, torch.add, sys.maxsize, math.pi / 2): pytest and
// torch's parametrize name a test by the value, its __name__ or its
// position depending on what the name is, which the snapshot records.
TEST(ScanCommand, NamesFromTorchAndStandardModulesGetTheIdsPytestGives) {
  EXPECT_EQ(ExpectScanCollectsAsPytest("examples/external_values"), 20u);
}

// Method and module-level function bodies are not parsed up front
// (docs/scan.md): examples/def_bodies holds bodies that look like code at
// class or module level (strings, f-strings, brackets and continuations at
// column zero, comments between methods), module functions that module code
// runs (a parametrize list, an ids function, a setattr generator), and the
// scan must collect exactly what real pytest collects from them.
TEST(ScanCommand, SkippedBodiesLoseAndInventNoTest) {
  EXPECT_EQ(ExpectScanCollectsAsPytest("examples/def_bodies"), 15u);
}

// A parameter value that is a bool or a number the scan cannot work out
// (`len(s) > 0`, `len(s)` of what os.environ holds): pytest names the
// test by the value (`[True]`, `[3]`); the scan says it cannot, rather
// than print a stand-in id (it printed `[x0]` and `[x1]`, exit 0).
TEST(ScanCommand, UnknownBoolOrNumberValuesAreNotGivenStandInIds) {
  TempDir d;
  d.Write("test_values.py",
          "import os\nimport pytest\n\n\ndef compute():\n    return os.environ.get('NAMES', "
          "'abc')\n\n\n"
          "def _values():\n    names = compute()\n"
          "    return [len(names) > 0, len(names)]\n\n\n"
          "@pytest.mark.parametrize('x', _values())\ndef test_a(x):\n    pass\n\n\n"
          "@pytest.mark.parametrize('y', [1, 'b'])\ndef test_b(y):\n    pass\n");
  std::set<std::string> collected = PytestCollects(d.path().string());
  ASSERT_TRUE(collected.count("test_values.py::test_a[True]"));
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(scan.rc, 1) << scan.err;  // a partial answer
  EXPECT_NE(scan.err.find("test_values.py:14: warning: cannot evaluate parameter value "
                          "`len(names) > 0`"),
            std::string::npos)
      << scan.err;
  // Every id it prints is one pytest collects: test_b's, none of test_a's.
  auto lines = Lines(scan.out);
  EXPECT_EQ(std::set<std::string>(lines.begin(), lines.end()),
            (std::set<std::string>{"test_values.py::test_b[1]", "test_values.py::test_b[b]"}));
  for (const auto& id : lines) EXPECT_TRUE(collected.count(id)) << id;
}

// A fuzz finding that hung the scan (tree-sitter 0.20.7 looped in the
// parse that skipped method bodies, def_bodies_test.cc): a method's line
// at column zero (data/dedent_to_column_zero.py). The file is reported at CPython's line for its
// syntax error and the rest of the tree is scanned.
TEST(ScanCommand, AMethodLineAtColumnZeroIsASyntaxErrorNotAHang) {
  TempDir d;
  d.Write("test_good.py", kGood);
  std::string bad =
      d.Write("test_dedent.py", testmap::testing::ReadFile(testmap::testing::SourcePath(
                                    "tests/analyzers/python/data/dedent_to_column_zero.py")));
  auto r = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_EQ(r.out, "test_good.py::TestGood::test_n_n_1\ntest_good.py::TestGood::test_n_n_2\n");
  int line = PythonSyntaxErrorLine(bad);
  ASSERT_GT(line, 0);
  EXPECT_NE(r.err.find("test_dedent.py:" + std::to_string(line) + ": error: syntax error"),
            std::string::npos)
      << r.err;
}

// A syntax error in a module function's body, which the file's parse
// skips, is still the file's when module code runs the function: pytest
// fails to import it and collects nothing, so the scan prints no test.
TEST(ScanCommand, ASyntaxErrorInACalledModuleFunctionIsTheFiles) {
  TempDir d;
  d.Write("test_se.py",
          "import pytest\n\n\ndef _v():\n    x = = 1\n    return [1, 2]\n\n\n"
          "@pytest.mark.parametrize('x', _v())\ndef test_a(x):\n    pass\n\n\n"
          "def test_b():\n    pass\n");
  auto truth =
      Python({"-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, d.path().string());
  EXPECT_NE(truth.rc, 0);
  EXPECT_NE(truth.out.find("no tests collected, 1 error"), std::string::npos) << truth.out;
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(scan.rc, 1);
  EXPECT_EQ(scan.out, "");
  EXPECT_NE(scan.err.find("test_se.py:5: error: syntax error"), std::string::npos) << scan.err;
}

// Import-time code that makes tests, as real PyTorch files do
// (test_spectral_ops.py's doc tests, test_fake_tensor.py's Propagate*
// classes): a loop that calls a helper which setattrs is followed, exactly,
// and so are classes made by type(...) and bound through globals() (both
// had been scanned as complete answers with those tests missing, exit 0;
// then the classes were a warning).
TEST(ScanCommand, TestsMadeAtImportTimeAreFollowed) {
  TempDir d;
  d.Write("test_helper_setattr.py",
          "from torch.testing._internal.common_device_type import "
          "instantiate_device_type_tests\n"
          "from torch.testing._internal.common_utils import TestCase\n\n\n"
          "class TestDocs(TestCase):\n    def test_base(self, device):\n        pass\n\n\n"
          "def generate_test(name):\n    def test(self, device):\n        pass\n\n"
          "    setattr(TestDocs, 'test_' + name, test)\n\n\n"
          "for name in ['fft', 'ifft']:\n    generate_test(name)\n\n"
          "instantiate_device_type_tests(TestDocs, globals(), only_for='cpu')\n");
  d.Write("test_made_classes.py",
          "from torch.testing._internal.common_utils import TestCase\n\n\n"
          "class FooTest(TestCase):\n    def test_a(self):\n        pass\n\n\n"
          "BarTest = type('BarTest', (FooTest,), {})\n\n\n"
          "def register(name):\n    globals()[name] = type(name, (FooTest,), {})\n\n\n"
          "register('BazTest')\n");
  std::set<std::string> collected = PytestCollects(d.path().string());
  ASSERT_EQ(collected.size(), 6u);
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(scan.rc, 0) << scan.err;
  auto ids = Lines(scan.out);
  EXPECT_EQ(std::set<std::string>(ids.begin(), ids.end()), collected);
}

// The idioms of torch's make_test_cls_with_patches and of classes bound
// through globals() (examples/patched_classes: at module level, in a module
// function module code calls, after instantiate_parametrized_tests, before
// instantiate_device_type_tests, a class bound under another name than its
// own, a copy made before instantiate_parametrized_tests, a module function
// that is only called make_test_cls_with_patches, a top-level setattr on a
// made class): the scan collects what real pytest collects.
TEST(ScanCommand, ClassesMadeByCallsAreCollectedAsPytestDoes) {
  EXPECT_EQ(ExpectScanCollectsAsPytest("examples/patched_classes"), 91u);
}

// What the scan cannot follow of such code stays a warning with its line
// and a partial answer, and no id is guessed: a decorator= it does not
// know, a prefix it cannot evaluate, a globals() key it cannot evaluate, a
// test-like name bound to an unknown call's result, a helper that binds
// classes called inside a comprehension, a class statement in a top-level
// loop.
TEST(ScanCommand, ClassesMadeAtImportTimeItCannotFollowAreReported) {
  TempDir d;
  d.Write("test_unfollowed.py",
          "import os\n\n"
          "import torch\n"
          "from torch._dynamo.testing import make_test_cls_with_patches\n"
          "from torch.testing._internal.common_utils import TestCase\n"
          "from unittest import mock\n\n\n"
          "class FooTest(TestCase):\n    def test_a(self):\n        pass\n\n\n"
          "def keep(fn):\n    return fn\n\n\n"
          "Decorated = make_test_cls_with_patches(FooTest, 'D', '_d', decorator=keep)\n"
          "FromEnv = make_test_cls_with_patches(FooTest, os.environ.get('P', 'E'), '_e')\n"
          "globals()[os.environ.get('NAME', 'KeyTest')] = FooTest\n"
          "MockTest = mock.MagicMock(FooTest)\n\n\n"
          "def make(cls):\n    made = make_test_cls_with_patches(cls, 'M', '_m')\n"
          "    globals()[made.__name__] = made\n\n\n"
          "made_all = [make(c) for c in [FooTest]]\n\n\n"
          "for n in ['A']:\n    class Made(TestCase):\n        def test_m(self):\n"
          "            pass\n    globals()['Bound' + n] = Made\n");
  std::set<std::string> collected = PytestCollects(d.path().string());
  ASSERT_TRUE(collected.count("test_unfollowed.py::Decorated::test_a_d")) << collected.size();
  ASSERT_TRUE(collected.count("test_unfollowed.py::KeyTest::test_a"));
  ASSERT_TRUE(collected.count("test_unfollowed.py::MFooTest::test_a_m"));
  ASSERT_TRUE(collected.count("test_unfollowed.py::BoundA::test_m"));
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(scan.rc, 1) << scan.err;  // a partial answer
  EXPECT_EQ(scan.out, "test_unfollowed.py::FooTest::test_a\n");
  for (const char* warning :
       {"test_unfollowed.py:18: warning: tests made at import time by `Decorated = "
        "make_test_cls_with_patches(FooTest, 'D', '_d', decorator=keep)` may be missing: cannot "
        "follow `make_test_cls_with_patches(...)`: cannot tell what decorator=keep does to its "
        "tests",
        "test_unfollowed.py:19: warning: tests made at import time by `FromEnv = ",
        "cannot evaluate its class prefix and test suffix",
        "test_unfollowed.py:20: warning: tests made at import time by `globals()[",
        "cannot tell which name globals()[os.environ.get('NAME', 'KeyTest')] binds",
        "test_unfollowed.py:21: warning: tests made at import time by `MockTest = ",
        "class `MockTest` made by `mock.MagicMock(...)` is not followed",
        "test_unfollowed.py:29: warning: import-time code in `made_all = [make(c) for c in "
        "[FooTest]]` is not followed",
        "test_unfollowed.py:33: warning: tests made at import time by `for n in ['A']:",
        "class `Made` defined inside a top-level block is not followed"})
    EXPECT_NE(scan.err.find(warning), std::string::npos) << warning << "\n" << scan.err;
}

// instantiate_device_type_tests deletes the class's own name from the
// module: a class passed by another name, its own not bound, is a KeyError
// at import, after which pytest collects nothing from the file; the scan
// says it cannot follow the call.
TEST(ScanCommand, InstantiatingAClassWhoseNameIsNotBoundIsReported) {
  TempDir d;
  d.Write("test_renamed.py",
          "from torch._dynamo.testing import make_test_cls_with_patches\n"
          "from torch.testing._internal.common_device_type import "
          "instantiate_device_type_tests\n"
          "from torch.testing._internal.common_utils import TestCase\n\n\n"
          "class FooTest(TestCase):\n    def test_a(self, device):\n        pass\n\n\n"
          "Alias = make_test_cls_with_patches(FooTest, 'P', '_p')\n"
          "instantiate_device_type_tests(Alias, globals(), only_for='cpu')\n");
  auto truth =
      Python({"-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"}, d.path().string());
  EXPECT_NE(truth.out.find("KeyError: 'PFooTest'"), std::string::npos) << truth.out;
  auto scan = Testmap({"scan", ".", "--no-cache", "--format", "nodeids"}, d.path().string());
  EXPECT_EQ(scan.rc, 1) << scan.err;
  EXPECT_NE(scan.err.find("test_renamed.py:12: warning: cannot follow "
                          "instantiate_device_type_tests(Alias, globals(), only_for='cpu'): it "
                          "deletes `PFooTest`, which the module does not bind"),
            std::string::npos)
      << scan.err;
}

// Parametrize ids from string values with every escape Python decodes in a
// str (examples/string_ids): pytest builds them from the decoded text.
TEST(ScanCommand, EscapedStringValuesGiveTheIdsPytestGives) {
  EXPECT_EQ(ExpectScanCollectsAsPytest("examples/string_ids"), 12u);
}

}  // namespace

namespace {

// The tree output cache through the command: a warm re-scan answers the
// uncached scan's stdout, stderr and exit status, for every format, also
// when a file has diagnostics and the answer is partial.
TEST(ScanCommand, WarmRescanFromTheTreeOutputIsTheUncachedAnswer) {
  TempDir d, cache;
  testmap::testing::CopySourceFiles("examples/suite", d.path());
  // A file whose tests cannot all be enumerated: a warning, a partial answer.
  d.Write("test_partial.py",
          "import unittest\nclass TestY(unittest.TestCase):\n    pass\n"
          "for name in names():\n    setattr(TestY, name, lambda self: None)\n");
  // The real torch's snapshot, so that no run here takes one (seconds).
  fs::path snapshot = testmap::torch_snapshot::EnsureTorchSnapshot(
      TESTMAP_PYTHON, testmap::torch_snapshot::DefaultCacheDir());
  fs::create_directories(cache.path() / "torch-snapshots");
  fs::copy_file(snapshot, cache.path() / "torch-snapshots" / snapshot.filename());
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& e : fs::directory_iterator(d.path())) fs::last_write_time(e.path(), old);
  for (const char* format : {"table", "jsonl", "json", "nodeids"}) {
    auto scan = [&](bool cached) {
      std::vector<std::string> args = {"scan", ".", "--format", format};
      if (cached)
        args.insert(args.end(), {"--cache-dir", cache.path().string()});
      else
        args.push_back("--no-cache");
      return Testmap(args, d.path().string());
    };
    auto cold = scan(false);
    EXPECT_EQ(cold.rc, 1) << format << cold.err;  // partial
    EXPECT_NE(cold.err.find("test_partial.py:4: warning"), std::string::npos) << cold.err;
    for (int i = 0; i < 2; ++i) {
      auto warm = scan(true);
      EXPECT_EQ(warm.rc, cold.rc) << format;
      EXPECT_EQ(warm.out, cold.out) << format;
      EXPECT_EQ(warm.err, cold.err) << format;
    }
  }
  // One entry per format, its index and its segments: the second runs
  // were served from them.
  std::multiset<std::string> kinds;
  for (const auto& e : fs::directory_iterator(cache.path() / "scan-output"))
    kinds.insert(e.path().extension().string());
  EXPECT_EQ(kinds, (std::multiset<std::string>{".out", ".out", ".out", ".out", ".seg", ".seg",
                                               ".seg", ".seg"}));
}

// A full cache disk, here a file-size limit (writes fail as on a full
// disk; no root needed): the answer is the uncached one, exit 0, and no
// half-written cache file is left; with room again the entry is written.
TEST(ScanCommand, AFullCacheDiskChangesNoAnswer) {
  TempDir d, cache;
  testmap::testing::CopySourceFiles("examples/suite", d.path());
  auto old = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const auto& e : fs::directory_iterator(d.path())) fs::last_write_time(e.path(), old);
  fs::path snapshot = testmap::torch_snapshot::EnsureTorchSnapshot(
      TESTMAP_PYTHON, testmap::torch_snapshot::DefaultCacheDir());
  fs::create_directories(cache.path() / "torch-snapshots");
  fs::copy_file(snapshot, cache.path() / "torch-snapshots" / snapshot.filename());
  auto uncached = Testmap({"scan", ".", "--format", "jsonl", "--no-cache"}, d.path().string());
  ASSERT_EQ(uncached.rc, 0) << uncached.err;
  const std::string scan = "scan . --format jsonl --cache-dir '" + cache.path().string() + "'";
  for (int kib : {1, 8, 32, 128}) {
    // The limit on testmap alone, its answer through a pipe (a pipe has no
    // size to limit; the file the test reads it from would).
    auto r = RunCommand({"bash", "-c",
                         "set -o pipefail; trap '' XFSZ; (ulimit -f " + std::to_string(kib) +
                             "; exec '" + TestmapBin() + "' " + scan + ") | cat"},
                        d.path().string());
    EXPECT_EQ(r.rc, 0) << kib << " KiB: " << r.err;
    EXPECT_TRUE(r.out == uncached.out) << kib << " KiB: " << r.err;
    for (const auto& e : fs::recursive_directory_iterator(cache.path()))
      EXPECT_EQ(e.path().string().find(".tmp"), std::string::npos) << e.path();
  }
  auto room = TestmapShell(scan, d.path().string());
  EXPECT_EQ(room.out, uncached.out);
  EXPECT_TRUE(fs::exists(cache.path() / "scan-output"));
  size_t entries = 0;
  for (const auto& e : fs::directory_iterator(cache.path() / "scan-output"))
    entries += e.path().extension() == ".out";
  EXPECT_EQ(entries, 1u);
}

}  // namespace
