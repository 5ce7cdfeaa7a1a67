#include "analyzers/python/tree_scanner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "analyzers/python/scan_cache.h"
#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

TEST(DiscoverTestFiles, FollowsPytestNamingAndSkipsItsNorecursedirs) {
  testing::TempDir d;
  d.Write("test_a.py", "");
  d.Write("b_test.py", "");
  d.Write("helper.py", "");
  d.Write("sub/test_c.py", "");
  d.Write(".hidden/test_d.py", "");
  d.Write("build/test_e.py", "");
  d.Write("node_modules/test_f.py", "");
  d.Write("env/pyvenv.cfg", "");
  d.Write("env/test_g.py", "");
  std::vector<std::string> warnings, errors;
  auto files = DiscoverTestFiles({d.path().string()}, &warnings, &errors);
  std::vector<std::string> rel;
  for (const auto& f : files)
    rel.push_back(std::filesystem::path(f).lexically_relative(d.path()).string());
  EXPECT_EQ(rel, (std::vector<std::string>{"b_test.py", "sub/test_c.py", "test_a.py"}));
  EXPECT_TRUE(warnings.empty());
  EXPECT_TRUE(errors.empty());
}

TEST(DiscoverTestFiles, ReportsSymlinkLoopsAndMissingPaths) {
  testing::TempDir d;
  d.Write("pkg/test_a.py", "");
  std::filesystem::create_directory_symlink(d.path() / "pkg", d.path() / "pkg" / "again");
  std::vector<std::string> warnings, errors;
  auto files =
      DiscoverTestFiles({d.path().string(), (d.path() / "nope").string()}, &warnings, &errors);
  EXPECT_EQ(files.size(), 1u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("symlink loop"), std::string::npos) << warnings[0];
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("no such file"), std::string::npos) << errors[0];
}

// The per-file cache: a new one is created beside the scan (its gets would
// find nothing), an existing one opened before it. Either way a cache that
// cannot be opened is a warning and the scan goes on; one that opens keeps
// what the scan put, for the next scan to get.
TEST(ScanTree, TheFileCacheIsCreatedBesideTheScanOrIsAWarningWhenItCannotBe) {
  testing::TempDir d;
  d.Write("test_a.py", "def test_x():\n    pass\n\n\ndef test_y():\n    pass\n");
  auto scan = [&](const std::string& cache_dir) {
    TreeScanOptions o;
    o.paths = {d.path().string()};
    o.rootdir = d.path().string();
    o.cache_dir = cache_dir;
    return ScanTree(o);
  };
  const std::string unavailable = "scan cache unavailable, scanning without it: ";

  // None yet: made while scanning, then read by the next scan.
  const std::string fresh = (d.path() / "fresh").string();
  TreeScanResult first = scan(fresh);
  EXPECT_EQ(first.tests, 2u);
  EXPECT_EQ(first.cache_hits, 0u);
  EXPECT_TRUE(first.warnings.empty());
  TreeScanResult second = scan(fresh);
  EXPECT_EQ(second.tests, 2u);
  EXPECT_EQ(second.cache_hits, 1u);

  // None yet and none can be made (its directory is a file).
  const std::string blocked = (d.path() / "blocked").string();
  d.Write("blocked/scan", "a file where the cache's directory would be");
  TreeScanResult made = scan(blocked);
  EXPECT_EQ(made.tests, 2u);
  ASSERT_EQ(made.warnings.size(), 1u);
  EXPECT_EQ(made.warnings[0].rfind(unavailable + blocked + "/scan", 0), 0u) << made.warnings[0];

  // One that exists, held by another opener.
  std::string error;
  std::unique_ptr<ScanCache> holder = ScanCache::Open(fresh + "/scan", &error);
  ASSERT_NE(holder, nullptr) << error;
  TreeScanResult held = scan(fresh);
  EXPECT_EQ(held.tests, 2u);
  EXPECT_EQ(held.cache_hits, 0u);
  ASSERT_EQ(held.warnings.size(), 1u);
  EXPECT_EQ(held.warnings[0].rfind(unavailable + fresh + "/scan", 0), 0u) << held.warnings[0];
}

// A file of many tests is put into the cache, rendered and freed on
// threads beside the scan's: its output is the same on one thread and on
// four, cold and read back from the cache.
TEST(ScanTree, AFileOfManyTestsGivesTheSameOutputOnOneThreadOrMany) {
  testing::TempDir d;
  std::string source;
  constexpr int kTests = 9000;  // over the 8,192 that get threads of their own
  for (int i = 0; i < kTests; ++i) source += "def test_" + std::to_string(i) + "():\n    pass\n";
  d.Write("tests/test_many.py", source);
  d.Write("tests/test_few.py", "def test_one():\n    pass\n");
  auto scan = [&](int jobs, const std::string& cache) {
    TreeScanOptions o;
    o.paths = {(d.path() / "tests").string()};
    o.rootdir = d.path().string();
    o.jobs = jobs;
    o.cache_dir = (d.path() / cache).string();
    o.output = ScanFormat::kJsonl;
    TreeScanResult r = ScanTree(o);
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.tests, kTests + 1u);
    return r.output.str();
  };
  const std::string one = scan(1, "one");
  EXPECT_EQ(std::count(one.begin(), one.end(), '\n'), kTests + 1);
  EXPECT_NE(one.find("\"nodeid\":\"tests/test_many.py::test_8999\""), std::string::npos);
  EXPECT_EQ(scan(4, "four"), one);
  std::filesystem::remove_all(d.path() / "four" / "scan-output");
  EXPECT_EQ(scan(4, "four"), one);  // each file's records from the cache
}

// Files with the same bytes share a cache entry even in the scan that
// creates the cache: once it is open, a file is served what an earlier one
// put. Forty files of 1,000 tests each take far longer to scan than the
// ~5 ms the cache takes to be created.
TEST(ScanTree, FilesWithTheSameBytesShareAnEntryInTheScanThatCreatesTheCache) {
  testing::TempDir d;
  std::string source;
  for (int i = 0; i < 1000; ++i) source += "def test_" + std::to_string(i) + "():\n    pass\n";
  constexpr size_t kFiles = 40;
  for (size_t f = 0; f < kFiles; ++f) d.Write("t/test_" + std::to_string(f) + ".py", source);
  TreeScanOptions o;
  o.paths = {(d.path() / "t").string()};
  o.rootdir = d.path().string();
  o.jobs = 1;
  o.cache_dir = (d.path() / "cache").string();
  TreeScanResult r = ScanTree(o);
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.tests, kFiles * 1000);
  EXPECT_GE(r.cache_hits, 1u);
  EXPECT_LT(r.cache_hits, kFiles);
  for (const FileScan& f : r.files) EXPECT_EQ(f.tests.size(), 1000u) << f.path;
  EXPECT_EQ(r.files.back().tests.back().nodeid, "t/test_9.py::test_999");
}

}  // namespace
}  // namespace testmap::python
