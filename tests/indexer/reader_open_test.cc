// Readers open only the column families they read (IndexStore::Open's
// `cfs`): the answers stay those of a full open, a column family a reader
// did not ask for cannot be read by mistake, and a damaged index or a
// directory that is no index is still named as such.
#include <gtest/gtest.h>

#include <stdexcept>

#include "indexer/index_layout.h"
#include "indexer/index_store.h"
#include "tests/indexer/drop_column_family.h"
#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using indexer::Cf;
using indexer::CfBit;

std::string SuiteIndex(const std::string& name) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir(name) + "/index";
  auto r = Testmap({"ingest", "--index", index, ev.scan, ev.trace});
  EXPECT_EQ(r.rc, 0) << r.err;
  return index;
}

TEST(ReaderOpenTest, ASubsetReadsAsTheFullOpenAndNothingElse) {
  std::string index = SuiteIndex("reader-subset");
  auto full = indexer::IndexStore::Open(index, indexer::OpenMode::kRead);
  auto some = indexer::IndexStore::Open(index, indexer::OpenMode::kRead, CfBit(Cf::kOpTests));
  size_t full_edges = 0, some_edges = 0;
  full->Scan(Cf::kOpTests,
             "aten::", [&](std::string_view, std::string_view) { return ++full_edges, true; });
  some->Scan(Cf::kOpTests,
             "aten::", [&](std::string_view, std::string_view) { return ++some_edges, true; });
  EXPECT_GT(full_edges, 100u);
  EXPECT_EQ(some_edges, full_edges);
  EXPECT_EQ(some->Get(Cf::kDefault, indexer::kSchemaVersionKey),
            std::to_string(indexer::kSchemaVersion));
  EXPECT_THROW(some->Get(Cf::kTests, "x"), std::logic_error);
  EXPECT_THROW(some->NewCursor(Cf::kOutcomes), std::logic_error);
}

TEST(ReaderOpenTest, AMissingColumnFamilyIsDamageAndNoIndexIsSaidAtOnce) {
  std::string index = SuiteIndex("reader-damaged");
  ASSERT_TRUE(DropColumnFamily(index, "op_tests"));
  // `query --format nodeids` reads op_tests alone, assumed present.
  auto q = Testmap({"query", "--index", index, "--op", "mm", "--format", "nodeids"});
  EXPECT_EQ(q.rc, 1);
  EXPECT_NE(q.err.find("damaged index: column family `op_tests` is missing"), std::string::npos)
      << q.err;

  // A directory with a MANIFEST that is none: refused, naming it (as a full
  // open does; readers retry such an open for a few seconds, since a
  // concurrent commit can look like this for a moment).
  std::string other = ScratchDir("reader-garbage");
  WriteFile(other + "/CURRENT", "MANIFEST-000001\n");
  WriteFile(other + "/MANIFEST-000001", "not a manifest");
  auto r = Testmap({"query", "--index", other, "--op", "mm", "--format", "nodeids"});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find(other + ": cannot open the index"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace testmap::testing
