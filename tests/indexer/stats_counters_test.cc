// `testmap stats` reads counts kept at ingest (indexer/index_counters.h).
// After every ingest of a sequence (scan, trace, the same run again, a
// second run, a traced-only test later scanned, backend records replaced)
// they must equal both a recount (`index verify` compares the stored
// counters with a walk) and the truth computed here from the JSONL inputs
// with plain JSON reading. An index without counters still answers with
// the same numbers, and stored counters that lie are caught by verify.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "indexer/index_layout.h"
#include "indexer/index_store.h"
#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

// What the inputs ingested so far say, independent of the index code.
struct Truth {
  std::set<std::string> tests, scanned, traced, generic;
  std::set<std::pair<std::string, std::string>> outcomes;  // (nodeid, run line)

  void AddScan(const std::string& path) {
    for (const auto& line : Lines(ReadFile(path))) {
      json r = json::parse(line);
      tests.insert(r["nodeid"]);
      scanned.insert(r["nodeid"]);
      if (!r.value("generic_id", "").empty()) generic.insert(r["generic_id"]);
    }
  }
  void AddTrace(const std::string& path) {
    auto lines = Lines(ReadFile(path));
    for (const auto& line : lines) {
      json r = json::parse(line);
      if (r["type"] != "test") continue;
      tests.insert(r["nodeid"]);
      traced.insert(r["nodeid"]);
      outcomes.insert({r["nodeid"], lines.front()});  // the run is its header line
    }
  }
  size_t ScannedTraced() const {
    size_t n = 0;
    for (const auto& id : scanned) n += traced.count(id);
    return n;
  }
};

json Stats(const std::string& index) {
  auto r = Testmap({"stats", "--index", index, "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  return json::parse(r.out);
}

void ExpectCountsHold(const std::string& index, const Truth& truth, const std::string& step) {
  SCOPED_TRACE(step);
  auto v = Testmap({"index", "verify", "--index", index});
  EXPECT_EQ(v.rc, 0) << v.out << v.err;  // includes: stored counters == a recount
  EXPECT_NE(Testmap({"index", "dump", "--index", index}).out.find("counters\t{"), std::string::npos)
      << "the ingest kept no counters";
  json s = Stats(index);
  EXPECT_EQ(s["tests"], truth.tests.size());
  EXPECT_EQ(s["traced_tests"], truth.traced.size());
  EXPECT_EQ(s["generic_tests"], truth.generic.size());
  EXPECT_EQ(s["outcomes"], truth.outcomes.size());
  EXPECT_EQ(s["evidence"]["scanned"], truth.scanned.size());
  EXPECT_EQ(s["evidence"]["with_evidence"], truth.ScannedTraced());
  EXPECT_GT(s["edges"].get<size_t>(), 0u);
}

// A copy of the example trace as another run (another start time), with
// one test renamed into a file no scan knows.
std::string SecondRun(const std::string& dir, const std::string& renamed_from,
                      const std::string& renamed_to) {
  std::string text = ReadFile(ExampleSuiteEvidence().trace);
  size_t at = text.find("\"start_time\":\"");
  text.replace(at + 14, 4, "1999");
  for (size_t p; (p = text.find("\"" + renamed_from + "\"")) != std::string::npos;)
    text.replace(p + 1, renamed_from.size(), renamed_to);
  std::string shard = dir + "/trace-gw1.jsonl";
  WriteFile(shard, text);
  return shard;
}

std::string BackendRecords(const std::string& dir, const std::string& name, int n) {
  std::string text;
  for (const char* op : {"aten::add.Tensor", "aten::mul.Tensor", "aten::eq.Tensor"}) {
    if (n-- == 0) break;
    text += std::string(R"({"op":")") + op +
            R"(","dispatch_key":"PrivateUse1","kind":"kernel","mechanism":"m.impl",)"
            R"("file":"csrc/ops.cpp","line":3,"evidence":"static"})"
            "\n";
  }
  std::string path = dir + "/" + name;
  WriteFile(path, text);
  return path;
}

TEST(StatsCountersTest, CountsKeptAtIngestEqualARecountAndTheInputs) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string dir = ScratchDir("stats-counters");
  std::string index = dir + "/index";
  Truth truth;
  auto ingest = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"ingest", "--index", index});
    auto r = Testmap(args);
    ASSERT_EQ(r.rc, 0) << r.err;
  };

  ingest({ev.scan});
  truth.AddScan(ev.scan);
  ExpectCountsHold(index, truth, "scan only");

  ingest({ev.trace});
  truth.AddTrace(ev.trace);
  ExpectCountsHold(index, truth, "then its trace");
  json once = Stats(index);

  ingest({ev.trace, ev.scan});
  ExpectCountsHold(index, truth, "the same run and scan again");
  EXPECT_EQ(Stats(index)["edges"], once["edges"]);
  EXPECT_EQ(Stats(index)["edges_by_evidence"], once["edges_by_evidence"]);
  EXPECT_EQ(Stats(index)["operators"], once["operators"]);

  // A second run, with one test only traced (its own file, no scan).
  std::string victim = *truth.traced.begin();
  std::string only_traced = "test_only_traced.py::TestOnly::test_x";
  std::string shard = SecondRun(dir, victim, only_traced);
  ingest({shard});
  truth.AddTrace(shard);
  ExpectCountsHold(index, truth, "a second run");
  EXPECT_GT(Stats(index)["edges"].get<size_t>(), once["edges"].get<size_t>());

  // That test scanned later: its minimal record becomes a scan record.
  std::string line = Lines(ReadFile(ev.scan)).front();
  json rec = json::parse(line);
  rec["nodeid"] = only_traced;
  rec["file"] = "test_only_traced.py";
  rec["generic_id"] = "test_only_traced.py::TestOnly::test_x_generic";
  std::string late_scan = dir + "/late-scan.jsonl";
  WriteFile(late_scan, rec.dump() + "\n");
  ingest({late_scan});
  truth.AddScan(late_scan);
  ExpectCountsHold(index, truth, "a traced-only test scanned later");

  // Backend records, then a replacement of them: no count moves.
  json before_backends = Stats(index);
  ingest({"--backend", "toy", BackendRecords(dir, "toy.jsonl", 3)});
  ingest({"--backend", "toy", BackendRecords(dir, "fewer.jsonl", 1)});
  ExpectCountsHold(index, truth, "backend records replaced");
  json after = Stats(index);
  for (const char* k : {"tests", "traced_tests", "operators", "edges", "outcomes"})
    EXPECT_EQ(after[k], before_backends[k]) << k;
}

// Writes `value` as the counters key, as a writer through IndexStore would.
void WriteCounters(const std::string& index, const std::optional<std::string>& value) {
  auto store = indexer::IndexStore::Open(index, indexer::OpenMode::kWrite);
  indexer::IndexBatch batch;
  if (value) batch.Put(indexer::Cf::kDefault, indexer::kCountersKey, *value);
  store->Commit(batch);  // without the key: blanks the counters (index_store.h)
}

TEST(StatsCountersTest, WithoutCountersStatsWalksAndTheNextIngestCountsOnce) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir("stats-blank") + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan, ev.trace}).rc, 0);
  json kept = Stats(index);
  WriteCounters(index, std::nullopt);
  EXPECT_NE(Testmap({"index", "dump", "--index", index}).out.find("counters\t\n"),
            std::string::npos);
  json walked = Stats(index);
  walked["bytes"] = kept["bytes"];
  EXPECT_EQ(walked, kept);
  // The next ingest (here of nothing new) counts once and stores them again.
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.trace}).rc, 0);
  EXPECT_NE(Testmap({"index", "dump", "--index", index}).out.find("counters\t{"),
            std::string::npos);
  json again = Stats(index);
  again["bytes"] = kept["bytes"];
  EXPECT_EQ(again, kept);
  EXPECT_EQ(Testmap({"index", "verify", "--index", index}).rc, 0);
}

TEST(StatsCountersTest, CountersThatLieAreWhatStatsSaysAndVerifyCatchesThem) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir("stats-lie") + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan, ev.trace}).rc, 0);
  json kept = Stats(index);
  json lie = json::parse(R"({"tests":1,"generic_tests":2,"traced_tests":3,"scanned_tests":4,
      "scanned_traced":5,"operators":6,"edges":7,"outcomes":8,"edges_by_evidence":{"eager":7}})");
  WriteCounters(index, lie.dump());
  json s = Stats(index);  // stats reads the counters, it does not walk
  EXPECT_EQ(s["tests"], 1);
  EXPECT_EQ(s["edges"], 7);
  auto v = Testmap({"index", "verify", "--index", index});
  EXPECT_EQ(v.rc, 1);
  EXPECT_NE(v.out.find("counters: stored counts differ"), std::string::npos) << v.out;
  EXPECT_NE(v.out.find("tests: 1 != " + kept["tests"].dump()), std::string::npos) << v.out;
}

}  // namespace
}  // namespace testmap::testing
