// `testmap index prune --keep-runs N` on an index of the example suite's
// real scan and several nightly runs of its real trace (each a copy of the
// shard with its own run record, as the same suite traced on other nights).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

// The shard as night `night` would have written it: the same tests, a run
// record with that night's start time (hence its own run id); on night 0 one
// more test that later nights no longer have.
std::string NightlyShard(const std::string& dir, int night) {
  auto lines = Lines(ReadFile(ExampleSuiteEvidence().trace));
  // The run line as the plugin writes it (`type` first), its start time replaced.
  std::string run = lines.at(0);
  const std::string key = "\"start_time\":\"";
  size_t at = run.find(key);
  EXPECT_NE(at, std::string::npos);
  at += key.size();
  run.replace(at, run.find('"', at) - at,
              "2026-11-0" + std::to_string(night + 1) + "T02:00:00+00:00");
  std::string text = run + "\n";
  for (size_t i = 1; i < lines.size(); ++i) text += lines[i] + "\n";
  if (night == 0) {
    text += R"({"type":"test","nodeid":"gone.py::test_removed","outcome":"passed","duration":0.5,)"
            R"("ops":[{"op":"aten::mm","dtypes":["float32"],"device":"cpu"}]})"
            "\n";
  }
  std::string path = dir + "/trace-night" + std::to_string(night) + ".jsonl";
  WriteFile(path, text);
  return path;
}

json Stats(const std::string& index) {
  auto r = Testmap({"stats", "--index", index, "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  return json::parse(r.out);
}

// Stats without the size on disk, which RocksDB's own files move.
json Counts(const std::string& index) {
  json s = Stats(index);
  s.erase("bytes");
  return s;
}

TEST(IndexPruneTest, KeepsTheNewestRunsAndRemovesWhatOnlyOlderOnesBrought) {
  std::string dir = ScratchDir("prune");
  std::string index = dir + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ExampleSuiteEvidence().scan}).rc, 0);
  for (int night = 0; night < 4; ++night) {
    auto in = Testmap({"ingest", "--index", index, NightlyShard(dir, night)});
    ASSERT_EQ(in.rc, 0) << in.err;
  }
  json before = Stats(index);
  const double before_bytes = before["bytes"].get<double>();
  ASSERT_EQ(before["runs"].size(), 4u);
  ASSERT_EQ(Testmap({"show", "--index", index, "gone.py::test_removed"}).rc, 0);

  // A dry run says what would go and changes nothing.
  auto dry = Testmap(
      {"index", "prune", "--index", index, "--keep-runs", "2", "--dry-run", "--format", "json"});
  ASSERT_EQ(dry.rc, 0) << dry.err;
  EXPECT_EQ(json::parse(dry.out)["runs_removed"].size(), 2u);
  before.erase("bytes");
  EXPECT_EQ(Counts(index), before);

  auto r = Testmap({"index", "prune", "--index", index, "--keep-runs", "2", "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  json report = json::parse(r.out);
  EXPECT_EQ(report["runs_kept"], 2);
  EXPECT_EQ(report["tests_removed"], 1);  // gone.py::test_removed, traced on night 0 only
  json after = Stats(index);
  ASSERT_EQ(after["runs"].size(), 2u);
  // The compaction after the deletes gives the space back.
  EXPECT_LT(after["bytes"].get<double>(), before_bytes);
  after.erase("bytes");
  std::set<std::string> starts;
  for (const auto& run : after["runs"]) starts.insert(run["start_time"]);
  EXPECT_EQ(starts,
            (std::set<std::string>{"2026-11-03T02:00:00+00:00", "2026-11-04T02:00:00+00:00"}));
  // Each surviving run brought every test's outcome and edges: half are left.
  EXPECT_EQ(after["outcomes"].get<size_t>() * 2, before["outcomes"].get<size_t>() - 1);
  EXPECT_EQ(after["tests"].get<size_t>(), before["tests"].get<size_t>() - 1);
  EXPECT_EQ(after["traced_tests"].get<size_t>(), before["traced_tests"].get<size_t>() - 1);
  EXPECT_EQ(Testmap({"show", "--index", index, "gone.py::test_removed"}).rc, 3);
  auto verify = Testmap({"index", "verify", "--index", index});
  EXPECT_EQ(verify.rc, 0) << verify.out;
  // The answers are those of the newest runs: the same tests run mm.
  auto q = Testmap({"query", "--index", index, "--op", "mm", "--format", "nodeids"});
  EXPECT_EQ(q.rc, 0) << q.err;
  EXPECT_EQ(q.out.find("gone.py"), std::string::npos);

  // Pruning to what is there already changes nothing.
  auto again = Testmap({"index", "prune", "--index", index, "--keep-runs", "2"});
  EXPECT_EQ(again.rc, 0);
  EXPECT_EQ(Counts(index), after);
}

// The point of pruning: a nightly ingest followed by a prune keeps the index
// from growing with the number of nights.
TEST(IndexPruneTest, NightlyIngestAndPruneBoundTheIndex) {
  std::string dir = ScratchDir("prune-bound");
  std::string index = dir + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ExampleSuiteEvidence().scan}).rc, 0);
  std::vector<size_t> outcomes;
  for (int night = 1; night < 6; ++night) {
    ASSERT_EQ(Testmap({"ingest", "--index", index, NightlyShard(dir, night)}).rc, 0);
    ASSERT_EQ(Testmap({"index", "prune", "--index", index, "--keep-runs", "2"}).rc, 0);
    outcomes.push_back(Stats(index)["outcomes"].get<size_t>());
  }
  EXPECT_EQ(Stats(index)["runs"].size(), 2u);
  EXPECT_EQ(outcomes[1], outcomes[4]) << "the index grew past two runs";
  EXPECT_EQ(Testmap({"index", "verify", "--index", index}).rc, 0);
}

TEST(IndexPruneTest, UsageErrors) {
  EXPECT_EQ(Testmap({"index", "prune", "--index", ScratchDir("prune-usage") + "/i"}).rc, 2);
  EXPECT_EQ(Testmap({"index", "prune", "--keep-runs", "-1"}).rc, 2);
  EXPECT_EQ(Testmap({"index", "prune", "--keep-runs", "x"}).rc, 2);
}

}  // namespace
}  // namespace testmap::testing
