// An index of an older schema: schema 2 (edge tuples without a role) is
// read as it is, its observations as role `test`, and the first writer
// migrates it in place; schema 1 is refused with a request to re-ingest.
#include <gtest/gtest.h>

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

TEST(IndexSchemaMigrationTest, SchemaOneIsRefusedWithARequestToReingest) {
  std::string index = ScratchDir("schema1") + "/index";
  WriteSchemaTwoIndex(index, "1");
  for (std::vector<std::string> args : {std::vector<std::string>{"query", "--op", "abs"},
                                        {"ingest", ExampleSuiteEvidence().trace}}) {
    args.insert(args.begin() + 1, {"--index", index});
    auto r = Testmap(args);
    EXPECT_EQ(r.rc, 1) << args[0];
    EXPECT_NE(
        r.err.find("index schema version 1 is older than this testmap's (" +
                   std::to_string(indexer::kSchemaVersion) + "): rebuild it with `testmap ingest`"),
        std::string::npos)
        << r.err;
  }
}

}  // namespace
}  // namespace testmap::testing
