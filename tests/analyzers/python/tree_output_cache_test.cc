// The tree output cache (tree_output_cache.h) against scans without any
// cache: for every format, a warm re-scan must give the bytes a cold scan
// gives, and any change to the tree or the options must miss the entry.
#include "analyzers/python/tree_output_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>

#include "analyzers/python/collector.h"
#include "analyzers/python/tree_scanner.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/temp_dir.h"

namespace fs = std::filesystem;

namespace testmap::python {
namespace {

// Files older than the racy window, as a checked-out tree's are.
void Backdate(const fs::path& p, int hours = 1) {
  fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(hours));
}

class TreeOutputCacheTest : public ::testing::TestWithParam<ScanFormat> {
 protected:
  void SetUp() override {
    for (const fs::path& copied : testing::CopySourceFiles("examples/suite", tree_.path()))
      Backdate(copied);
  }
  TreeScanResult Scan(const std::string& cache_dir) const {
    static const std::string snapshot =
        torch_snapshot::EnsureTorchSnapshot(TESTMAP_PYTHON, torch_snapshot::DefaultCacheDir());
    TreeScanOptions o;
    o.paths = {tree_.path().string()};
    o.rootdir = tree_.path().string();
    o.snapshot_file = snapshot;
    o.cache_dir = cache_dir;
    o.collect.devices = ParseDeviceSpecs(devices_);
    o.output = GetParam();
    return ScanTree(o);
  }
  // The reference: no cache of any kind.
  std::string Cold() const { return Scan("").output.str(); }
  // A scan with the shared cache: whether the tree entry served it, and
  // that its bytes are the cold scan's.
  bool Warm() const {
    TreeScanResult r = Scan(cache_.path().string());
    EXPECT_EQ(r.output.str(), Cold());
    TreeScanResult cold = Scan("");
    EXPECT_EQ(r.tests, cold.tests);
    EXPECT_EQ(r.files.size(), cold.files.size());
    for (size_t i = 0; i < std::min(r.files.size(), cold.files.size()); ++i) {
      EXPECT_EQ(r.files[i].path, cold.files[i].path);
      EXPECT_EQ(r.files[i].incomplete, cold.files[i].incomplete);
      EXPECT_EQ(r.files[i].diagnostics.size(), cold.files[i].diagnostics.size());
    }
    return r.output_from_cache;
  }
  testing::TempDir tree_, cache_;
  std::vector<std::string> devices_{"cpu"};
};

TEST_P(TreeOutputCacheTest, WarmIsColdAndEveryChangeMisses) {
  ASSERT_GT(Cold().size(), 1000u);
  EXPECT_FALSE(Warm());  // writes the entry
  EXPECT_TRUE(Warm());   // served whole

  fs::path one = tree_.path() / "test_ops.py";
  Backdate(one, 2);  // touched: same bytes, another mtime
  EXPECT_FALSE(Warm());
  EXPECT_TRUE(Warm());

  tree_.Write("test_ops.py", testing::ReadFile(one.string()) +
                                 "\n\ndef test_added_by_the_cache_test():\n    pass\n");
  Backdate(one);
  EXPECT_FALSE(Warm());
  EXPECT_NE(Cold().find("test_added_by_the_cache_test"), std::string::npos);
  EXPECT_TRUE(Warm());

  Backdate(tree_.Write("test_new_file.py", "def test_in_a_new_file():\n    pass\n"));
  EXPECT_FALSE(Warm());
  EXPECT_TRUE(Warm());
  fs::remove(tree_.path() / "test_new_file.py");
  EXPECT_FALSE(Warm());
  EXPECT_TRUE(Warm());

  devices_ = {"cpu", "meta"};  // other options
  EXPECT_FALSE(Warm());
  EXPECT_TRUE(Warm());
}

TEST_P(TreeOutputCacheTest, RecentlyModifiedFilesAreNeverServedWhole) {
  // A file written now could change again within its timestamp's tick
  // without its stat changing: no entry is written for such a tree.
  tree_.Write("test_fresh.py", "def test_fresh():\n    pass\n");
  EXPECT_FALSE(Warm());
  EXPECT_FALSE(Warm());
}

INSTANTIATE_TEST_SUITE_P(Formats, TreeOutputCacheTest,
                         ::testing::Values(ScanFormat::kTable, ScanFormat::kJsonl,
                                           ScanFormat::kJson, ScanFormat::kNodeids));

}  // namespace
}  // namespace testmap::python
