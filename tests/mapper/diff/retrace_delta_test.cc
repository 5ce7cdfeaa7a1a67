// Re-tracing only the delta `testmap diff --format nodeids` lists, then
// ingesting it with the new scan into the old index, gives the same query
// answers as a full trace of the new tree into a fresh index (same torch):
// every operator either index knows, every role. And the same traces,
// under two torch versions in one index, answer per version. Real
// `testmap trace` (pytest with the LibTorch recorder) on examples/diff.
#include <gtest/gtest.h>

#include <future>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

const std::string kOld = SourcePath("examples/diff/old");
const std::string kNew = SourcePath("examples/diff/new");

std::string Scan(const std::string& tree, const TempDir& dir, const std::string& name) {
  CommandResult s =
      Testmap({"scan", ".", "--torch-python", TESTMAP_PYTHON, "--format", "jsonl"}, tree);
  EXPECT_EQ(s.rc, 0) << s.err;
  return dir.Write(name, s.out);
}

// `testmap trace` of `ids` (the whole tree when empty) run in `tree`.
std::string Trace(const std::string& tree, const std::string& out,
                  const std::vector<std::string>& ids) {
  std::vector<std::string> args = {"trace",  "--out", out,  "--",
                                   "pytest", "-q",    "-p", "no:cacheprovider"};
  if (ids.empty()) args.push_back(".");
  args.insert(args.end(), ids.begin(), ids.end());
  CommandResult r = Testmap(args, tree);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  return out;
}

void Ingest(const std::string& index, const std::vector<std::string>& files) {
  std::vector<std::string> args = {"ingest", "--index", index};
  args.insert(args.end(), files.begin(), files.end());
  CommandResult r = Testmap(args);
  ASSERT_EQ(r.rc, 0) << r.err;
}

std::set<std::string> Ops(const std::string& index) {
  CommandResult r = Testmap({"ops", "--index", index, "--format", "json"});
  EXPECT_EQ(r.rc, 0) << index << ": " << r.err;
  std::set<std::string> ops;
  json j = json::parse(r.out);
  for (const auto& op : j.at("ops")) ops.insert(op.at("op"));
  return ops;
}

// What `query --op OP --role all` answers, without run ids and timings
// (which differ between any two runs).
json Answer(const std::string& index, const std::string& op) {
  CommandResult r =
      Testmap({"query", "--index", index, "--op", op, "--role", "all", "--format", "json"});
  if (r.rc == 3) return json::array();  // unknown in this index: no test runs it
  EXPECT_EQ(r.rc, 0) << index << " " << op << ": " << r.err;
  if (r.rc != 0) return json::array();
  json tests = json::array(), answer = json::parse(r.out);
  for (const auto& t : answer.at("tests")) {
    json ops = json::object();
    for (const auto& [name, use] : t.at("ops").items())
      ops[name] = {use.at("dtypes"), use.at("devices"), use.at("evidence"), use.at("roles"),
                   use.at("calls")};
    tests.push_back({t.at("nodeid"), ops});
  }
  return tests;
}

TEST(RetraceDelta, DeltaPlusIngestAnswersAsAFullRetraceAndTorchVersionsAnswerApart) {
  TempDir dir;
  std::string old_scan = Scan(kOld, dir, "old.jsonl"), new_scan = Scan(kNew, dir, "new.jsonl");
  CommandResult delta = Testmap({"diff", old_scan, new_scan, "--format", "nodeids"});
  ASSERT_EQ(delta.rc, 0) << delta.err;
  std::vector<std::string> ids = Lines(delta.out);
  ASSERT_EQ(ids.size(), 8u) << delta.out;

  // The three traces are independent: run them at once (each spends much
  // of its time importing torch).
  auto t_old = std::async(std::launch::async,
                          [&] { return Trace(kOld, (dir.path() / "t-old").string(), {}); });
  auto t_new = std::async(std::launch::async,
                          [&] { return Trace(kNew, (dir.path() / "t-new").string(), {}); });
  std::string t_delta = Trace(kNew, (dir.path() / "t-delta").string(), ids);
  std::string updated = (dir.path() / "updated").string();
  Ingest(updated, {old_scan, t_old.get()});
  Ingest(updated, {new_scan, t_delta});
  // The index now holds the new version (tests a rescan removed left out):
  // as a diff side it equals the new scan, with nothing to re-trace.
  CommandResult same = Testmap({"diff", updated, new_scan, "--format", "nodeids"});
  EXPECT_EQ(same.rc, 4) << same.out << same.err;
  std::string fresh = (dir.path() / "fresh").string();
  Ingest(fresh, {new_scan, t_new.get()});

  std::set<std::string> ops = Ops(fresh), old_ops = Ops(updated);
  ops.insert(old_ops.begin(), old_ops.end());
  ASSERT_GT(ops.size(), 10u);
  size_t compared = 0;
  for (const auto& op : ops) {
    json want = Answer(fresh, op), got = Answer(updated, op);
    EXPECT_EQ(got, want) << op;
    compared += want.size();
  }
  EXPECT_GT(compared, 20u);
  // Admission reads the same evidence: a rescan's retired runs and removed
  // tests leave it as they leave query.
  std::vector<std::string> admit = {"admit", "--ops"};
  for (const auto& op : ops)
    if (!op.starts_with("aten::mul")) admit.push_back(op);
  for (const char* state : {"admitted", "blocked"}) {
    std::vector<std::string> args = admit;
    args.insert(args.end(), {"--state", state, "--format", "nodeids", "--index"});
    std::vector<std::string> on_fresh = args, on_updated = args;
    on_fresh.push_back(fresh);
    on_updated.push_back(updated);
    CommandResult want = Testmap(on_fresh), got = Testmap(on_updated);
    EXPECT_EQ(Lines(got.out), Lines(want.out)) << state << ": " << got.err << want.err;
    EXPECT_FALSE(Lines(want.out).empty()) << state;
  }
  // What the delta changed is really there: the old body's add and the
  // removed test's ops are gone, the new body's mul is in.
  json add = Answer(updated, "aten::add");
  for (const auto& t : add)
    EXPECT_NE(t[0], "test_upgrade.py::TestArithCPU::test_body_changes_cpu") << add;
  for (const auto& op : old_ops)
    for (const auto& t : Answer(updated, op))
      EXPECT_NE(t[0], "test_upgrade.py::TestArithCPU::test_removed_cpu") << op;

  // Evidence per torch version (mapper/query/evidence_runs.h): the old
  // tree's real run as torch 2.13, the new tree's real run relabelled as
  // 2.14.1 (its run record's torch version edited, which gives it another
  // run id), both in one index. Per test the newest version answers; an
  // older one on --torch; a test only 2.13 ran answers with 2.13's.
  std::string shard = ReadFile((dir.path() / "t-new" / "trace-main.jsonl").string());
  std::string torch = "\"torch\":{\"version\":\"";
  size_t at = shard.find(torch);
  ASSERT_NE(at, std::string::npos);
  size_t end = shard.find('"', at + torch.size());
  std::string v13 = shard.substr(at + torch.size(), end - at - torch.size());
  shard.replace(at + torch.size(), end - at - torch.size(), "2.14.1");
  std::string versions = (dir.path() / "versions").string();
  Ingest(versions,
         {new_scan, (dir.path() / "t-old").string(), dir.Write("t-214/trace-main.jsonl", shard)});
  auto ids_of = [&](const std::string& op, std::vector<std::string> extra) {
    std::vector<std::string> args = {"query", "--index",  versions, "--op",
                                     op,      "--format", "nodeids"};
    args.insert(args.end(), extra.begin(), extra.end());
    CommandResult r = Testmap(args);
    std::set<std::string> ids;
    for (const auto& l : Lines(r.out)) ids.insert(l);
    return ids;
  };
  const std::string body = "test_upgrade.py::TestArithCPU::test_body_changes_cpu";
  EXPECT_EQ(ids_of("aten::add", {}).count(body), 0u);  // 2.13 ran x + 1; 2.14.1 does not
  EXPECT_EQ(ids_of("aten::mul", {}).count(body), 1u);
  EXPECT_EQ(ids_of("aten::add", {"--torch", v13}).count(body), 1u);
  EXPECT_EQ(ids_of("aten::mul", {"--torch", v13}).count(body), 0u);
  EXPECT_EQ(ids_of("aten::eye", {}).count("test_upgrade.py::TestArithCPU::test_removed_cpu"),
            1u);  // only 2.13 traced it
  CommandResult unknown =
      Testmap({"query", "--index", versions, "--op", "aten::add", "--torch", "2.99"});
  EXPECT_EQ(unknown.rc, 3) << unknown.err;
  EXPECT_NE(unknown.err.find("2.14.1"), std::string::npos) << unknown.err;
}

}  // namespace
}  // namespace testmap::testing
