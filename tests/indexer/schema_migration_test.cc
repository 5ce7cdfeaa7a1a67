// An index of an older schema: schema 2 (edge tuples without a role) is
// read as it is, its observations as role `test`, and the first writer
// migrates it in place; so is schema 1 (no timings column family).
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <nlohmann/json.hpp>

#include "indexer/index_layout.h"
#include "indexer/index_store.h"
#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using indexer::Cf;

// What testmap of schema 2 wrote for one traced test: its record, one run,
// one outcome and one edge in both directions, tuples of four fields.
void WriteSchemaTwoIndex(const std::string& dir, const std::string& schema = "2") {
  auto store = indexer::IndexStore::Open(dir, indexer::OpenMode::kWrite);
  indexer::IndexBatch batch;
  const std::string id = "t.py::T::test_a", run = "0123456789abcdef";
  const std::string edge = "eager\tcpu\tfloat32\t3\neager\tcpu\tint64\t1";
  batch.Put(Cf::kDefault, indexer::kSchemaVersionKey, schema);
  batch.Put(Cf::kTests, id, R"({"nodeid":"t.py::T::test_a","origin":"trace","file":"t.py"})");
  batch.Put(Cf::kRuns, run, R"({"type":"run","format":"testmap-trace","version":1})");
  batch.Put(Cf::kOutcomes, indexer::JoinKey({id, run}),
            R"({"outcome":"passed","duration":0.5,"start":1})");
  batch.Put(Cf::kOpTests, indexer::JoinKey({"aten::abs", "", id, run}), edge);
  batch.Put(Cf::kTestOps, indexer::JoinKey({id, "aten::abs", "", run}), edge);
  store->Commit(batch);
}

std::string SchemaOf(const std::string& dir) {
  for (const auto& line : Lines(Testmap({"index", "dump", "--index", dir}).out)) {
    if (line.find("schema_version") != std::string::npos) return line;
  }
  return "";
}

TEST(IndexSchemaMigrationTest, SchemaTwoIsReadAsRoleTestAndMigratedByTheFirstWriter) {
  std::string index = ScratchDir("migrate") + "/index";
  WriteSchemaTwoIndex(index);
  std::string before = SchemaOf(index);
  ASSERT_NE(before.find('2'), std::string::npos) << before;
  // Readers read it as it is: the old observations are the test's own.
  auto q = Testmap({"query", "--index", index, "--op", "abs", "--format", "json"});
  ASSERT_EQ(q.rc, 0) << q.err;
  auto doc = nlohmann::json::parse(q.out);
  ASSERT_EQ(doc["count"], 1);
  EXPECT_EQ(doc["tests"][0]["ops"]["aten::abs"]["roles"], nlohmann::json::array({"test"}));
  EXPECT_EQ(doc["tests"][0]["ops"]["aten::abs"]["calls"], 4);
  EXPECT_EQ(SchemaOf(index), before) << "a reader changed the index";
  // The first writer migrates it; what it held stays, what it adds has roles.
  auto r = Testmap({"ingest", "--index", index, ExampleSuiteEvidence().trace});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(SchemaOf(index).find(std::to_string(indexer::kSchemaVersion)), std::string::npos);
  auto v = Testmap({"index", "verify", "--index", index});
  EXPECT_EQ(v.rc, 0) << v.out << v.err;
  auto shown = nlohmann::json::parse(Testmap({"show", "--index", index, "t.py::T::test_a"}).out);
  ASSERT_EQ(shown["ops"].size(), 1u);
  EXPECT_EQ(shown["ops"][0]["observations"][0]["role"], "test");
  auto all = Testmap(
      {"query", "--index", index, "--op", "abs", "--role", "assert", "--format", "nodeids"});
  EXPECT_EQ(all.rc, 0) << all.err;
  EXPECT_EQ(all.out.find("t.py::T::test_a"), std::string::npos);
  EXPECT_FALSE(all.out.empty());
}

// Schema 1 had no timings column family; otherwise it wrote what schema 2
// did. Written here with RocksDB itself, as that testmap left it.
void WriteSchemaOneIndex(const std::string& dir) {
  rocksdb::Options options;
  options.create_if_missing = true;
  options.create_missing_column_families = true;
  std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
  for (const char* name :
       {"default", "tests", "generic", "op_tests", "test_ops", "outcomes", "runs"})
    cfs.emplace_back(name, rocksdb::ColumnFamilyOptions(options));
  std::vector<rocksdb::ColumnFamilyHandle*> h;
  rocksdb::DB* db = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(options, dir, cfs, &h, &db).ok());
  const std::string id = "t.py::T::test_a", run = "0123456789abcdef";
  const std::string edge = "eager\tcpu\tfloat32\t3";
  rocksdb::WriteBatch b;
  b.Put(h[0], indexer::kSchemaVersionKey, "1");
  b.Put(h[0], indexer::kCreatedByKey, "testmap");
  b.Put(h[1], id, R"({"nodeid":"t.py::T::test_a","origin":"trace","file":"t.py"})");
  b.Put(h[3], indexer::JoinKey({"aten::abs", "", id, run}), edge);
  b.Put(h[4], indexer::JoinKey({id, "aten::abs", "", run}), edge);
  b.Put(h[5], indexer::JoinKey({id, run}), R"({"outcome":"passed","duration":0.5,"start":1})");
  b.Put(h[6], run, R"({"type":"run","format":"testmap-trace","version":1})");
  ASSERT_TRUE(db->Write(rocksdb::WriteOptions(), &b).ok());
  for (auto* handle : h) db->DestroyColumnFamilyHandle(handle);
  delete db;
}

// Never refused: readers read it as it is (no timing files), the first
// writer adds the timings column family and then the new version.
TEST(IndexSchemaMigrationTest, SchemaOneIsReadAndMigratedByTheFirstWriter) {
  std::string index = ScratchDir("schema1") + "/index";
  WriteSchemaOneIndex(index);
  auto q = Testmap({"query", "--index", index, "--op", "abs", "--format", "nodeids"});
  EXPECT_EQ(q.rc, 0) << q.err;
  EXPECT_EQ(q.out, "t.py::T::test_a\n");
  EXPECT_NE(SchemaOf(index).find("\t1"), std::string::npos) << "a reader changed the index";
  auto plan = Testmap({"plan", "--index", index, "--splits", "1", "--format", "nodeids"});
  EXPECT_EQ(plan.rc, 0) << plan.err;
  auto r = Testmap({"ingest", "--index", index, ExampleSuiteEvidence().trace,
                    SourcePath("tests/timings/data/pytest_xunit2.xml")});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(SchemaOf(index).find(std::to_string(indexer::kSchemaVersion)), std::string::npos);
  auto v = Testmap({"index", "verify", "--index", index});
  EXPECT_EQ(v.rc, 0) << v.out << v.err;
  auto stats = Testmap({"stats", "--index", index, "--format", "json"});
  ASSERT_EQ(stats.rc, 0) << stats.err;
  // The old test is still there, and the new timings went in.
  auto shown = Testmap({"show", "--index", index, "t.py::T::test_a"});
  EXPECT_EQ(shown.rc, 0) << shown.err;
  bool timings = false;
  for (const auto& line : Lines(Testmap({"index", "dump", "--index", index}).out))
    timings = timings || line.rfind("timings\t", 0) == 0;
  EXPECT_TRUE(timings);
}

}  // namespace
}  // namespace testmap::testing
