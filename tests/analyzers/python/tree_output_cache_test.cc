// The tree output cache (tree_output_cache.h) against scans without any
// cache: for every format, a warm re-scan must give the bytes a cold scan
// gives, any change to the tree or the options must miss the whole entry,
// and a re-scan after changes takes the unchanged files' parts of the
// answer from it and still gives the cold scan's bytes, whatever the
// changes were.
#include "analyzers/python/tree_output_cache.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>

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
  // that its bytes, files and counts are the cold scan's.
  bool Warm() const { return WarmScan().output_from_cache; }
  TreeScanResult WarmScan() const {
    TreeScanResult r = Scan(cache_.path().string());
    TreeScanResult cold = Scan("");
    EXPECT_EQ(r.output.str(), cold.output.str());
    EXPECT_EQ(r.tests, cold.tests);
    EXPECT_EQ(r.files.size(), cold.files.size());
    for (size_t i = 0; i < std::min(r.files.size(), cold.files.size()); ++i) {
      EXPECT_EQ(r.files[i].path, cold.files[i].path);
      EXPECT_EQ(r.files[i].skipped, cold.files[i].skipped);
      EXPECT_EQ(r.files[i].incomplete, cold.files[i].incomplete);
      EXPECT_EQ(r.files[i].diagnostics.size(), cold.files[i].diagnostics.size());
      EXPECT_TRUE(r.files[i].tests.empty());  // rendered, and dropped
    }
    return r;
  }
  size_t FileCount() const { return Scan("").files.size(); }
  // Which of the entry's two files were written since last asked: each
  // file's inode and mtime (an inode may be reused for the file written
  // after one is deleted).
  using Version = std::pair<uint64_t, uint64_t>;
  std::pair<Version, Version> EntryVersions() const {
    Version out{}, seg{};
    std::error_code ec;  // none yet: no version
    for (const auto& e : fs::directory_iterator(cache_.path() / "scan-output", ec)) {
      struct stat st;
      if (stat(e.path().c_str(), &st) != 0) continue;
      Version v{st.st_ino, st.st_mtim.tv_sec * uint64_t{1'000'000'000} + st.st_mtim.tv_nsec};
      (e.path().extension() == ".out" ? out : seg) = v;
    }
    return {out, seg};
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

TEST_P(TreeOutputCacheTest, AnEditedFileIsTheOnlyOneScannedAgain) {
  const size_t files = FileCount();
  EXPECT_FALSE(Warm());
  fs::path one = tree_.path() / "test_ops.py";
  tree_.Write("test_ops.py",
              testing::ReadFile(one.string()) + "\n\ndef test_added_by_the_edit():\n    pass\n");
  Backdate(one);
  TreeScanResult r = WarmScan();
  EXPECT_FALSE(r.output_from_cache);
  EXPECT_EQ(r.segments_reused, files - 1);
  EXPECT_NE(r.output.str().find("test_added_by_the_edit"), std::string::npos);
  EXPECT_TRUE(Warm());  // and the new entry serves the tree whole
  // A file written just now is racy: no entry for this state, but the
  // other files' parts still come from the last one.
  tree_.Write("test_ops.py", testing::ReadFile(one.string()) + "\n# a comment\n");
  r = WarmScan();
  EXPECT_EQ(r.segments_reused, files - 1);
  EXPECT_FALSE(Warm());
}

TEST_P(TreeOutputCacheTest, ADamagedEntryIsAMissAndIsReplaced) {
  EXPECT_FALSE(Warm());
  fs::path dir = cache_.path() / "scan-output";
  auto entry = [&](const char* ext) {
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ext) return e.path();
    return fs::path();
  };
  // The index cut short, the segments' file cut short, another entry's
  // segments file: each a miss that scans, then replaced.
  fs::resize_file(entry(".out"), fs::file_size(entry(".out")) / 2);
  EXPECT_FALSE(Warm());
  EXPECT_TRUE(Warm());
  fs::resize_file(entry(".seg"), fs::file_size(entry(".seg")) / 2);
  EXPECT_FALSE(Warm());
  EXPECT_TRUE(Warm());
  std::string seg = testing::ReadFile(entry(".seg").string());
  seg[9] ^= 1;  // its id
  testing::WriteFile(entry(".seg").string(), seg);
  TreeScanResult r = WarmScan();
  EXPECT_FALSE(r.output_from_cache);
  EXPECT_EQ(r.segments_reused, 0u);
  EXPECT_TRUE(Warm());
}

// Whatever bytes the index holds, reading it never crashes, overreads or
// allocates without bound (the sanitizer build runs this: its reports are
// this loop's failures), and a damaged head (magic, the .seg file's id,
// the inline size) is a miss. A flipped byte that leaves the rest well
// formed can still point at other bytes: the cache trusts what it wrote
// whole and renamed into place, as the per-file cache trusts RocksDB.
TEST_P(TreeOutputCacheTest, ArbitraryBytesInTheIndexNeverCrashAndABadHeadIsAMiss) {
  EXPECT_FALSE(Warm());
  fs::path dir = cache_.path() / "scan-output";
  fs::path index;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".out") index = e.path();
  const std::string good = testing::ReadFile(index.string());
  ASSERT_GT(good.size(), 64u);
  core::Hash128 slot;  // the index's name is the slot's digest
  std::string name = index.stem().string();
  ASSERT_EQ(name.size(), 32u);
  slot.high = std::stoull(name.substr(0, 16), nullptr, 16);
  slot.low = std::stoull(name.substr(16), nullptr, 16);
  ASSERT_TRUE(ReadTreeOutput(dir.string(), slot));
  auto read_with = [&](const std::string& bytes) {
    testing::WriteFile(index.string(), bytes);
    auto t = ReadTreeOutput(dir.string(), slot);
    if (t) {  // every piece read, as a scan would send it
      std::vector<OutputBytes> segments;
      for (const auto& f : t->files) segments.push_back(f.segment);
      ComposeScan(t->layout, t->head, segments, t->tail).str();
    }
    return t.has_value();
  };
  // Layout: magic [0, 8), state, context, .seg id [40, 56), inline size.
  for (size_t at : {0, 7, 40, 55, 56, 63}) {
    std::string bad = good;
    bad[at] ^= 0x10;
    EXPECT_FALSE(read_with(bad)) << "byte " << at;
  }
  std::mt19937 random(7 + static_cast<int>(GetParam()));
  for (int round = 0; round < 300; ++round) {
    std::string bad = good;
    if (round % 3 == 2) {
      bad.resize(random() % bad.size());
    } else {
      for (int k = 0; k < 1 + round % 4; ++k)
        bad[random() % bad.size()] ^= static_cast<char>(1 + random() % 255);
    }
    read_with(bad);
  }
  testing::WriteFile(index.string(), good);
  EXPECT_TRUE(Warm());  // the good index serves again
}

// Random changes, many rounds: after each, the cached scan gives the cold
// scan's bytes (WarmScan), whether its parts came from an entry written
// once (the .seg file kept, a new index) or after its segments were
// written anew. Changes: tests added to a file or every test taken out of
// one (the JSON array's first element moves), a comment, a test name
// longer than the table's width, a syntax error (a skipped file), a touch,
// files added and deleted, a racy write, other devices.
TEST_P(TreeOutputCacheTest, RandomChangesAlwaysGiveTheColdAnswer) {
  std::mt19937 random(20261207 + static_cast<int>(GetParam()));
  auto pick = [&](size_t n) { return static_cast<size_t>(random() % n); };
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(tree_.path()))
    if (e.path().extension() == ".py") names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  const size_t originals = names.size();
  size_t reused = 0, index_only = 0, both_written = 0;
  int hours = 100;
  EXPECT_FALSE(Warm());
  std::string broken, broken_text;  // a file with a syntax error, and its text before
  std::string racy_name;            // a file written just now
  for (int round = 0; round < 40; ++round) {
    auto [out0, seg0] = EntryVersions();
    // A file with a syntax error is skipped, and no entry is written while
    // one is: mended a round later.
    if (!broken.empty()) {
      tree_.Write(broken, broken_text);
      Backdate(tree_.path() / broken, hours--);
      broken.clear();
    }
    // Nor while a file is racy: aged a round later.
    if (!racy_name.empty() && fs::exists(tree_.path() / racy_name))
      Backdate(tree_.path() / racy_name, hours--);
    racy_name.clear();
    const std::string name = names[pick(names.size())];
    const std::string path = (tree_.path() / name).string();
    const std::string text = testing::ReadFile(path);
    bool racy = false;
    switch (pick(9)) {
      case 0:
        tree_.Write(name, text + "\ndef test_r" + std::to_string(round) + "():\n    pass\n");
        break;
      case 1:
        tree_.Write(name, text + "\n# round " + std::to_string(round) + "\n");
        break;
      case 2:
        tree_.Write(name, "def helper():\n    pass\n");  // no test left
        break;
      case 3:
        tree_.Write(name,
                    text + "\ndef test_" + std::string(130 + pick(20), 'w') + "():\n    pass\n");
        break;
      case 4:
        tree_.Write(name, text + "\ndef broken(:\n");
        broken = name;
        broken_text = text;
        break;
      case 5:
        break;  // touched below
      case 6: {
        std::string added = "test_added_" + std::to_string(round) + ".py";
        tree_.Write(added,
                    "import pytest\n@pytest.mark.parametrize('x', [1, 2])\n"
                    "def test_p(x):\n    pass\n");
        Backdate(tree_.path() / added, hours--);
        names.push_back(added);
        break;
      }
      case 7:
        if (names.size() > originals / 2) {
          fs::remove(path);
          names.erase(std::find(names.begin(), names.end(), name));
        }
        break;
      case 8:
        racy = true;
        racy_name = name;
        tree_.Write(name, text + "\n# racy " + std::to_string(round) + "\n");
        break;
    }
    if (!racy && fs::exists(path)) Backdate(path, hours--);
    if (round % 7 == 6)
      devices_ = devices_.size() == 1 ? std::vector<std::string>{"cpu", "meta"}
                                      : std::vector<std::string>{"cpu"};
    TreeScanResult r = WarmScan();
    reused += r.segments_reused;
    auto [out1, seg1] = EntryVersions();
    if (out1 != out0 && seg1 == seg0) ++index_only;
    if (out1 != out0 && seg1 != seg0) ++both_written;
    if (HasFailure()) {
      ADD_FAILURE() << "round " << round << " changed " << name;
      break;
    }
  }
  EXPECT_GT(reused, 0u);
  EXPECT_GT(index_only, 0u);
  EXPECT_GT(both_written, 0u);
  // No temporary file is left behind, written whole or given up.
  for (const auto& e : fs::directory_iterator(cache_.path() / "scan-output"))
    EXPECT_TRUE(e.path().extension() == ".out" || e.path().extension() == ".seg") << e.path();
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
