// Node ids of `testmap scan` against plain `pytest --collect-only -q` run
// in the same directory with the same arguments, for the layouts whose
// rootdir pytest decides differently (pytest_rootdir.h): no config file,
// a config at a parent (PyTorch's: ids start with test/), each config
// file kind, runs from a subfolder, absolute paths, --rootdir, -c,
// setup.py, testpaths.
#include "analyzers/python/pytest_rootdir.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "core/errors.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

using testing::Lines;
using testing::Python;
using testing::TempDir;
using testing::Testmap;

const char* kTests =
    "class TestA:\n    def test_a(self):\n        pass\n\ndef test_b():\n    pass\n";

std::vector<std::string> Ids(const std::string& out) {
  std::vector<std::string> ids;
  for (const auto& line : Lines(out))
    if (line.find("::") != std::string::npos) ids.push_back(line);
  std::sort(ids.begin(), ids.end());
  return ids;
}

// Both tools in `cwd` with `args`; returns pytest's ids after checking
// the scan printed the same ones.
std::vector<std::string> ExpectSameIds(const std::string& cwd, std::vector<std::string> args) {
  std::vector<std::string> pytest = {"-m", "pytest", "--collect-only",
                                     "-q", "-p",     "no:cacheprovider"};
  pytest.insert(pytest.end(), args.begin(), args.end());
  auto truth = Python(pytest, cwd);
  EXPECT_EQ(truth.rc, 0) << truth.out << truth.err;
  std::vector<std::string> scan = {"scan", "--format", "nodeids", "--no-cache"};
  scan.insert(scan.end(), args.begin(), args.end());
  auto r = Testmap(scan, cwd);
  EXPECT_EQ(r.rc, 0) << r.err;
  std::vector<std::string> expected = Ids(truth.out);
  EXPECT_FALSE(expected.empty()) << truth.out;
  EXPECT_EQ(Ids(r.out), expected) << "cwd " << cwd << "\n" << r.err;
  return expected;
}

TEST(PytestRootdir, NoConfigFile) {
  TempDir d;
  d.Write("pkg/test_x.py", kTests);
  d.Write("pkg/sub/test_y.py", kTests);
  std::string root = d.path().string();
  auto ids = ExpectSameIds(root, {"pkg"});
  EXPECT_EQ(ids.front(), "pkg/sub/test_y.py::TestA::test_a");
  ExpectSameIds(root, {"pkg/sub/test_y.py", "pkg/test_x.py"});
  ExpectSameIds(root, {root + "/pkg/sub"});
  ExpectSameIds(root + "/pkg", {});
  ExpectSameIds(root + "/pkg/sub", {"../test_x.py"});
}

// A tree scan passes the working directory once: relative names resolve
// against it as against the current directory (the ids of NoConfigFile,
// which pytest printed), absolute names do not depend on it.
TEST(PytestRootdir, NodeIdPathRelativeToTheGivenCwd) {
  TempDir d;
  d.Write("pkg/test_x.py", kTests);
  d.Write("pkg/sub/test_y.py", kTests);
  std::string root = d.path().string();
  PytestInvocation inv;
  inv.args = {"pkg"};
  inv.cwd = root;
  PytestSetup setup = DeterminePytestSetup(inv);
  EXPECT_EQ(NodeIdPath("pkg/sub/test_y.py", setup, root), "pkg/sub/test_y.py");
  EXPECT_EQ(NodeIdPath("../test_x.py", setup, root + "/pkg/sub"), "pkg/test_x.py");
  EXPECT_EQ(NodeIdPath("test_x.py", setup, root + "/pkg"), "pkg/test_x.py");
  EXPECT_EQ(NodeIdPath(root + "/pkg/test_x.py", setup, "/"), "pkg/test_x.py");
  EXPECT_EQ(NodeIdPath(root + "/pkg/test_x.py", setup), "pkg/test_x.py");
}

TEST(PytestRootdir, PytestIniAtTheParentAsInPyTorch) {
  TempDir d, elsewhere;
  d.Write("pytest.ini", "[pytest]\naddopts = -p no:cacheprovider\ntestpaths =\n    test\n");
  d.Write("test/test_ops.py", kTests);
  d.Write("test/nn/test_embedding.py", kTests);
  d.Write("tools/test_tool.py", kTests);  // not under testpaths
  std::string root = d.path().string();
  auto ids = ExpectSameIds(root, {"test/test_ops.py"});
  EXPECT_EQ(ids.front(), "test/test_ops.py::TestA::test_a");
  // No path: testpaths from the rootdir, the working directory elsewhere.
  ids = ExpectSameIds(root, {});
  EXPECT_EQ(ids.size(), 4u);
  ExpectSameIds(root + "/test", {"test_ops.py"});
  ExpectSameIds(root + "/test/nn", {});
  ExpectSameIds(root + "/test", {"nn"});
  ExpectSameIds(elsewhere.path().string(), {root + "/test/nn/test_embedding.py"});
}

TEST(PytestRootdir, EachConfigFileKind) {
  struct Layout {
    const char* file;
    const char* content;
  } layouts[] = {
      {"pyproject.toml",
       "[project]\nname = 'x'\n\n[tool.pytest.ini_options]\ntestpaths = [\"t\"]\n"},
      {"tox.ini", "[tox]\nenvlist = py3\n\n[pytest]\ntestpaths = t\n"},
      {"setup.cfg", "[metadata]\nname = x\n\n[tool:pytest]\ntestpaths = t\n"},
      {"pytest.toml", "[pytest]\ntestpaths = [\"t\"]\n"},
  };
  for (const Layout& l : layouts) {
    SCOPED_TRACE(l.file);
    TempDir d;
    d.Write(l.file, l.content);
    d.Write("t/test_x.py", kTests);
    d.Write("t/deep/test_y.py", kTests);
    d.Write("other/test_z.py", kTests);
    std::string root = d.path().string();
    EXPECT_EQ(ExpectSameIds(root + "/t/deep", {"test_y.py"}).front(),
              "t/deep/test_y.py::TestA::test_a");
    EXPECT_EQ(ExpectSameIds(root, {}).size(), 4u);  // testpaths
  }
}

TEST(PytestRootdir, ConfigFilesWithoutPytestSettingsAreSkipped) {
  TempDir d;
  // tox.ini and setup.cfg without pytest sections do not count; a
  // pyproject.toml without one counts only when nothing else is found.
  d.Write("pytest.ini", "[pytest]\n");
  d.Write("a/tox.ini", "[tox]\nenvlist = py3\n");
  d.Write("a/setup.cfg", "[metadata]\nname = x\n");
  d.Write("a/test_x.py", kTests);
  d.Write("b/pyproject.toml", "[project]\nname = 'b'\n");
  d.Write("b/c/test_y.py", kTests);
  std::string root = d.path().string();
  EXPECT_EQ(ExpectSameIds(root + "/a", {"test_x.py"}).front(), "a/test_x.py::TestA::test_a");
  ExpectSameIds(root + "/b/c", {"test_y.py"});
}

TEST(PytestRootdir, SetupPyWithoutConfig) {
  TempDir d;
  d.Write("proj/setup.py", "");
  d.Write("proj/tests/test_x.py", kTests);
  ExpectSameIds((d.path() / "proj/tests").string(), {"test_x.py"});
}

TEST(PytestRootdir, RootdirAndConfigFileOptions) {
  TempDir d;
  d.Write("pytest.ini", "[pytest]\n");
  d.Write("test/test_x.py", kTests);
  d.Write("cfg/custom.ini", "[pytest]\n");
  d.Write("elsewhere/.keep", "");
  std::string root = d.path().string();
  EXPECT_EQ(ExpectSameIds(root, {"--rootdir", "test", "test/test_x.py"}).front(),
            "test_x.py::TestA::test_a");
  EXPECT_EQ(ExpectSameIds(root, {"--rootdir=" + root + "/test", "test"}).front(),
            "test_x.py::TestA::test_a");
  // A file outside the rootdir: pytest names it by the argument holding it.
  ExpectSameIds(root, {"--rootdir", "elsewhere", "test"});
  ExpectSameIds(root, {"--rootdir", "elsewhere", "test/test_x.py"});
  // -c: the config's directory is the rootdir.
  ExpectSameIds(root, {"-c", "cfg/custom.ini", "test/test_x.py"});
  ExpectSameIds(root + "/test", {"-c", "../cfg/custom.ini", "test_x.py"});
  ExpectSameIds(root + "/test", {"-c", "/dev/null", "test_x.py"});
}

TEST(PytestRootdir, RefusesWhatPytestRefuses) {
  TempDir d;
  d.Write("test_x.py", kTests);
  std::string root = d.path().string();
  EXPECT_THROW(DeterminePytestSetup({{}, "", root + "/missing.ini", root}), core::UsageError);
  EXPECT_THROW(DeterminePytestSetup({{}, root + "/nodir", "", root}), core::UsageError);
  auto r = Testmap({"scan", "--rootdir", "nodir", "."}, root);
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("--rootdir"), std::string::npos) << r.err;
  r = Testmap({"scan", "-c", "missing.ini", "."}, root);
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_EQ(Python({"-m", "pytest", "--collect-only", "-q", "-c", "missing.ini"}, root).rc, 4);
}

}  // namespace
}  // namespace testmap::python
