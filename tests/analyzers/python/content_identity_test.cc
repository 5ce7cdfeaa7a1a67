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

TEST(OpEntryIdentitiesTest, SameAnswersAsDescribeOpEntry) {
  const torch_snapshot::TorchSnapshot snap = torch_snapshot::LoadTorchSnapshot(
      torch_snapshot::EnsureTorchSnapshot(TESTMAP_PYTHON, torch_snapshot::DefaultCacheDir()));
  std::vector<std::vector<std::string>> dtypes = {{}, {"float32", "int64"}};
  for (const std::string& d : snap.all_dtypes) dtypes.push_back({d});
  const std::vector<std::string> devices = {"cpu", "cuda", "privateuseone"};

  OpEntryIdentities memo;  // one for all, as for a file over many ops
  size_t records = 0, dtype_dependent = 0;
  // Dtypes outermost: the memo meets each generic test again after all others.
  for (const auto& record_dtypes : dtypes) {
    for (const auto& op : snap.ops) {
      std::set<std::pair<std::string, std::string>> tests = {{"TestNamedNowhere", "test_none"}};
      for (std::string_view line : snap.EntryLines(op.entry))
        if (line.starts_with("decorate\t") && tests.size() < 6)
          tests.insert({FirstName(line, 1), FirstName(line, 2)});
      for (const auto& [cls, method] : tests) {
        for (const std::string& device : devices) {
          TestRecord plain, memoized;
          for (TestRecord* r : {&plain, &memoized}) {
            r->generic_class = cls;
            r->generic_method = method;
            r->params.device = device;
            r->params.dtypes = record_dtypes;
          }
          DescribeOpEntry(snap, op, plain);
          memo.Describe(snap, op, memoized);
          ASSERT_EQ(memoized.content.entry, plain.content.entry)
              << op.name << " " << cls << "." << method << " " << device;
          ASSERT_EQ(memoized.content.dtypes, plain.content.dtypes) << op.name << " " << device;
          ++records;
          if (record_dtypes.size() == 1) {
            TestRecord none = plain;
            none.params.dtypes.clear();
            DescribeOpEntry(snap, op, none);
            dtype_dependent += none.content.entry != plain.content.entry;
          }
        }
      }
    }
  }
  // The snapshot has ops (ground truth from torch), and some of their
  // DecorateInfos name dtypes: the memo's second level was exercised.
  EXPECT_GT(snap.ops.size(), 500u);
  EXPECT_GT(records, 10000u);
  EXPECT_GT(dtype_dependent, 100u);
}

}  // namespace
}  // namespace testmap::python
