// Which files `testmap backend scan PATH...` reads, and the folder its
// records' paths are relative to: the common ancestor of the PATHs (a
// file's folder for a file). Torch-free, so the sanitizer build runs it:
// the ancestor was once computed with iterators into a temporary path,
// a use after free that glibc's malloc hid and mimalloc did not.
#include "analyzers/backend/source_tree.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;
namespace tb = testmap::backend;

namespace {

class SourceTreeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    tmp_.Write("backend/csrc/deep/ops/kernels.cpp", "int x;\n");
    tmp_.Write("backend/csrc/deep/ops/kernels.h", "int y;\n");
    tmp_.Write("backend/pkg/__init__.py", "import torch\n");
    tmp_.Write("backend/pkg/test_skipped.py", "def test_x(): pass\n");
    root_ = fs::canonical(tmp_.path()).string();
  }
  testmap::testing::TempDir tmp_;
  std::string root_;
};

TEST_F(SourceTreeTest, OneDirectoryIsItsOwnBase) {
  tb::SourceTree t = tb::DiscoverSources({root_ + "/backend"});
  EXPECT_EQ(t.base, root_ + "/backend");
  EXPECT_EQ(t.cpp_sources, std::vector<std::string>{root_ + "/backend/csrc/deep/ops/kernels.cpp"});
  EXPECT_EQ(t.headers, std::vector<std::string>{root_ + "/backend/csrc/deep/ops/kernels.h"});
  EXPECT_EQ(t.python_files, std::vector<std::string>{root_ + "/backend/pkg/__init__.py"});
  EXPECT_EQ(tb::RelativeTo(t.cpp_sources[0], t.base), "csrc/deep/ops/kernels.cpp");
}

TEST_F(SourceTreeTest, SiblingsShareTheirParent) {
  tb::SourceTree t =
      tb::DiscoverSources({root_ + "/backend/csrc/deep/ops", root_ + "/backend/pkg"});
  EXPECT_EQ(t.base, root_ + "/backend");
  EXPECT_EQ(t.roots.size(), 2u);
}

TEST_F(SourceTreeTest, AFileIsBasedAtItsFolder) {
  tb::SourceTree t = tb::DiscoverSources({root_ + "/backend/csrc/deep/ops/kernels.cpp"});
  EXPECT_EQ(t.base, root_ + "/backend/csrc/deep/ops");
  EXPECT_EQ(t.cpp_sources.size(), 1u);
}

TEST_F(SourceTreeTest, AMissingPathIsReportedNotRead) {
  tb::SourceTree t = tb::DiscoverSources({root_ + "/backend/pkg", root_ + "/nowhere"});
  EXPECT_EQ(t.missing, std::vector<std::string>{root_ + "/nowhere"});
  EXPECT_EQ(t.base, root_ + "/backend/pkg");
}

}  // namespace
