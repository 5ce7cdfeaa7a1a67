// OpEntryIdentities (content_identity.h), the per-file memo of
// DescribeOpEntry, against DescribeOpEntry itself on the real torch
// snapshot: every op, for the generic tests its DecorateInfos name (and
// one they do not), on several devices, for each dtype, none and two.
#include "analyzers/python/content_identity.h"

#include <gtest/gtest.h>

#include <set>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::python {
namespace {

// The first name of a comma-separated column of a `decorate` line.
std::string FirstName(std::string_view line, int column) {
  for (int k = 0; k < column; ++k) line.remove_prefix(line.find('\t') + 1);
  return std::string(line.substr(0, std::min(line.find('\t'), line.find(','))));
}

// Generic tests to ask about for `op`: those its DecorateInfos name first
// (up to five), and one named nowhere.
std::set<std::pair<std::string, std::string>> GenericTests(
    const torch_snapshot::TorchSnapshot& snap, const torch_snapshot::OpInfoEntry& op) {
  std::set<std::pair<std::string, std::string>> tests = {{"TestNamedNowhere", "test_none"}};
  for (std::string_view line : snap.EntryLines(op.entry))
    if (line.starts_with("decorate\t") && tests.size() < 6)
      tests.insert({FirstName(line, 1), FirstName(line, 2)});
  return tests;
}

class OpEntryIdentitiesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    snap_ = new torch_snapshot::TorchSnapshot(torch_snapshot::LoadTorchSnapshot(
        torch_snapshot::EnsureTorchSnapshot(TESTMAP_PYTHON, torch_snapshot::DefaultCacheDir())));
    dtypes_ = {{}, {"float32", "int64"}};
    for (const std::string& d : snap_->all_dtypes) dtypes_.push_back({d});
  }
  // Asks `memo` and DescribeOpEntry about one record; counts it.
  void Check(OpEntryIdentities& memo, const torch_snapshot::OpInfoEntry& op, const std::string& cls,
             const std::string& method, const std::string& device,
             const std::vector<std::string>& dtypes) {
    TestRecord plain, memoized;
    for (TestRecord* r : {&plain, &memoized}) {
      r->generic_class = cls;
      r->generic_method = method;
      r->params.device = device;
      r->params.dtypes = dtypes;
    }
    DescribeOpEntry(*snap_, op, plain);
    memo.Describe(*snap_, op, memoized);
    EXPECT_EQ(memoized.content.entry, plain.content.entry)
        << op.name << " " << cls << "." << method << " " << device;
    EXPECT_EQ(memoized.content.dtypes, plain.content.dtypes) << op.name << " " << device;
    ++records_;
    if (dtypes.size() == 1) {
      TestRecord none = plain;
      none.params.dtypes.clear();
      DescribeOpEntry(*snap_, op, none);
      dtype_dependent_ += none.content.entry != plain.content.entry;
    }
  }
  // The snapshot has ops (ground truth from torch), and some of their
  // DecorateInfos name dtypes: records that differ by dtype alone were
  // asked about.
  void TearDown() override {
    EXPECT_GT(snap_->ops.size(), 500u);
    EXPECT_GT(records_, 10000u);
    EXPECT_GT(dtype_dependent_, 100u);
  }

  static inline torch_snapshot::TorchSnapshot* snap_ = nullptr;
  static inline std::vector<std::vector<std::string>> dtypes_;
  const std::vector<std::string> devices_ = {"cpu", "cuda", "privateuseone"};
  size_t records_ = 0, dtype_dependent_ = 0;
};

// In a scan's order: a generic test's records one op at a time, a record
// per dtype.
TEST_F(OpEntryIdentitiesTest, SameAnswersAsDescribeOpEntryInScanOrder) {
  OpEntryIdentities memo;  // one for all, as for a file over many ops
  for (const auto& op : snap_->ops)
    for (const auto& [cls, method] : GenericTests(*snap_, op))
      for (const std::string& device : devices_)
        for (const auto& dtypes : dtypes_) Check(memo, op, cls, method, device, dtypes);
}

// Dtypes outermost: the memo meets each op again after all others.
TEST_F(OpEntryIdentitiesTest, SameAnswersAsDescribeOpEntryRevisited) {
  OpEntryIdentities memo;
  for (const auto& dtypes : dtypes_)
    for (const auto& op : snap_->ops)
      for (const auto& [cls, method] : GenericTests(*snap_, op))
        for (const std::string& device : devices_) Check(memo, op, cls, method, device, dtypes);
}

}  // namespace
}  // namespace testmap::python
