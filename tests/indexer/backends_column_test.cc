// The `backends` column family: `testmap ingest --backend NAME` stores a
// backend's records whole under its name (a new set replaces the old),
// `backend show` gives them back, `admit --backend NAME` admits from them
// exactly what `admit --supported FILE` does; an index made before the
// column family existed (dropped here with RocksDB itself) still reads,
// and its first writer adds the column family.
#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <nlohmann/json.hpp>

#include "tests/indexer/drop_column_family.h"
#include "tests/mapper/admit/suite_index.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

std::string Record(const std::string& op, const std::string& key, const std::string& kind) {
  return R"({"op":)" + (op.empty() ? std::string("null") : "\"" + op + "\"") +
         R"(,"dispatch_key":")" + key + R"(","kind":")" + kind +
         R"(","mechanism":"m.impl","file":"csrc/ops.cpp","line":3,"evidence":"static"})" + "\n";
}

TEST(BackendsColumn, IngestShowAndAdmitFromTheIndex) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir("backends") + "/index";
  std::string records = Record("aten::add.Tensor", "PrivateUse1", "kernel") +
                        Record("aten::mul.Tensor", "PrivateUse1", "kernel") +
                        Record("aten::eq.Tensor", "PrivateUse1", "kernel") +
                        Record("", "PrivateUse1", "fallback");
  std::string file = WriteTempFile("toy.jsonl", records);
  // No name and no device scan to take one from: refused, nothing written.
  auto unnamed = Testmap({"ingest", "--index", index, ev.scan, ev.trace, file});
  EXPECT_EQ(unnamed.rc, 2) << unnamed.err;
  EXPECT_NE(unnamed.err.find("give --backend NAME"), std::string::npos);
  EXPECT_EQ(Testmap({"stats", "--index", index}).rc, 1);  // no index was created
  auto in = Testmap({"ingest", "--index", index, "--backend", "toy", ev.scan, ev.trace, file});
  ASSERT_EQ(in.rc, 0) << in.err;
  EXPECT_NE(in.out.find("4 registrations of backend toy"), std::string::npos) << in.out;

  auto shown = Testmap({"backend", "show", "toy", "--index", index, "--format", "jsonl"});
  ASSERT_EQ(shown.rc, 0) << shown.err;
  EXPECT_EQ(Lines(shown.out).size(), 4u);
  // What show prints is records again: admitting from them, from the file
  // and from the index's copy gives the same answer.
  std::string again = WriteTempFile("again.jsonl", shown.out);
  auto a = TestmapWithTorch({"admit", "--index", index, "--backend", "toy", "--format", "json"});
  auto b = TestmapWithTorch({"admit", "--index", index, "--supported", file, "--format", "json"});
  auto c = TestmapWithTorch({"admit", "--index", index, "--supported", again, "--format", "json"});
  ASSERT_EQ(a.rc, 0) << a.err;
  EXPECT_EQ(json::parse(a.out)["tests"], json::parse(b.out)["tests"]);
  EXPECT_EQ(json::parse(b.out)["tests"], json::parse(c.out)["tests"]);
  EXPECT_EQ(json::parse(a.out)["counts"]["blocked"], 0);  // the fallback

  // A new record set replaces the old one whole.
  std::string fewer =
      WriteTempFile("fewer.jsonl", Record("aten::add.Tensor", "PrivateUse1", "kernel"));
  ASSERT_EQ(Testmap({"ingest", "--index", index, "--backend", "toy", fewer}).rc, 0);
  shown = Testmap({"backend", "show", "toy", "--index", index, "--format", "jsonl"});
  EXPECT_EQ(Lines(shown.out).size(), 1u) << shown.out;
  auto blocked =
      TestmapWithTorch({"admit", "--index", index, "--backend", "toy", "--format", "json"});
  EXPECT_GT(json::parse(blocked.out)["counts"]["blocked"].get<int>(), 100);

  auto unknown = Testmap({"backend", "show", "tyo", "--index", index});
  EXPECT_EQ(unknown.rc, 3);
  EXPECT_NE(unknown.err.find("did you mean: toy"), std::string::npos) << unknown.err;
  EXPECT_EQ(TestmapWithTorch({"admit", "--index", index, "--backend", "tyo"}).rc, 3);
}

TEST(BackendsColumn, DefaultNameFromTheDeviceScan) {
  std::string index = ScratchDir("named") + "/index";
  auto in = Testmap({"ingest", "--index", index, ToyDeviceScan(),
                     WriteTempFile("r.jsonl", Record("aten::abs", "PrivateUse1", "kernel"))});
  ASSERT_EQ(in.rc, 0) << in.err;
  EXPECT_EQ(Testmap({"backend", "show", "toy", "--index", index}).rc, 0);
}

TEST(BackendsColumn, AnIndexWithoutTheColumnFamilyStillReadsAndGetsItOnWrite) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir("old") + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan, ev.trace}).rc, 0);
  auto before = Testmap({"query", "--index", index, "--op", "add", "--format", "nodeids"});
  {
    // What an index written before `backends` existed looks like.
    ASSERT_TRUE(DropColumnFamily(index, "backends"));
    std::vector<std::string> names;
    rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), index, &names);
    ASSERT_EQ(std::count(names.begin(), names.end(), "backends"), 0);
  }
  auto after = Testmap({"query", "--index", index, "--op", "add", "--format", "nodeids"});
  EXPECT_EQ(after.rc, 0) << after.err;
  EXPECT_EQ(after.out, before.out);
  EXPECT_EQ(Testmap({"index", "verify", "--index", index}).rc, 0);
  EXPECT_EQ(Testmap({"backend", "show", "toy", "--index", index}).rc, 3);
  auto in = Testmap({"ingest", "--index", index, "--backend", "toy",
                     WriteTempFile("r.jsonl", Record("aten::abs", "PrivateUse1", "kernel"))});
  ASSERT_EQ(in.rc, 0) << in.err;
  EXPECT_EQ(Testmap({"backend", "show", "toy", "--index", index}).rc, 0);
}

}  // namespace
}  // namespace testmap::testing
