// A class of thousands of tests fills its records on several threads
// (CollectOptions::threads): the records must be those one thread fills,
// field for field and in order, and their ids what real pytest collects.
// The class is made the ways a real file makes thousands: @ops over op_db
// (each record with its OpInfo's identities), a skip decorator, inherited
// and plain tests; the scan reads the real torch's snapshot.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "analyzers/python/file_scanner.h"
#include "analyzers/python/python_parser.h"
#include "analyzers/python/scan_output.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/pytest_collect.h"
#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

constexpr const char* kManyTests = R"(import unittest

from torch.testing._internal.common_device_type import instantiate_device_type_tests, ops
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.common_utils import TestCase


class Base(TestCase):
    def test_inherited(self, device):
        pass


class TestMany(Base):
    @ops(op_db)
    def test_a(self, device, dtype, op):
        pass

    @unittest.skip("not here")
    @ops(op_db)
    def test_b(self, device, dtype, op):
        pass

    @ops(op_db)
    def test_c(self, device, dtype, op):
        pass

    def test_plain(self, device):
        pass


instantiate_device_type_tests(TestMany, globals())
)";

// Each record as `testmap scan --format jsonl` prints it.
std::vector<std::string> Scan(const torch_snapshot::TorchSnapshot& snapshot, int threads) {
  auto parser = NewPythonParser();
  CollectOptions options;
  options.threads = threads;
  FileScan scan = ScanPythonSource(
      parser.get(), "test_many.py", kManyTests, [&] { return &snapshot; }, options);
  EXPECT_FALSE(scan.incomplete);
  EXPECT_TRUE(scan.diagnostics.empty());
  std::vector<std::string> records;
  for (const TestRecord& r : scan.tests) AppendTestJson(r, scan.path, records.emplace_back());
  return records;
}

TEST(ParallelRecords, ManyThreadsFillTheRecordsOneThreadFills) {
  const torch_snapshot::TorchSnapshot snapshot = torch_snapshot::LoadTorchSnapshot(
      torch_snapshot::EnsureTorchSnapshot(TESTMAP_PYTHON, torch_snapshot::DefaultCacheDir()));
  std::vector<std::string> one = Scan(snapshot, 1);
  // Enough records for four threads of 4,096 each.
  ASSERT_GT(one.size(), 4u * 4096);
  size_t with_entry = 0, skipped = 0;
  for (const std::string& r : one) {
    with_entry += r.find("\"entry\":\"\"") == std::string::npos;
    skipped += r.find("\"skips\":[\"unittest.skip(\\\"not here\\\")\"]") != std::string::npos;
  }
  EXPECT_GT(with_entry, one.size() / 2);
  EXPECT_GT(skipped, one.size() / 4);
  for (int threads : {2, 4, 7}) {
    std::vector<std::string> many = Scan(snapshot, threads);
    ASSERT_EQ(many.size(), one.size()) << threads << " threads";
    for (size_t i = 0; i < one.size(); ++i)
      ASSERT_EQ(many[i], one[i]) << threads << " threads, record " << i;
  }

  testing::TempDir d;
  d.Write("test_many.py", kManyTests);
  std::set<std::string> pytest = testing::PytestCollects(d.path().string());
  std::set<std::string> ids;
  for (const std::string& r : one) {
    size_t start = r.find("\"nodeid\":\"") + 10;
    ids.insert(r.substr(start, r.find('"', start) - start));
  }
  EXPECT_EQ(ids, pytest);
}

}  // namespace
}  // namespace testmap::python
