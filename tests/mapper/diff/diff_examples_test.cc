// `testmap diff` on the example pair examples/diff/old -> examples/diff/new,
// which differ by every kind of change the diff tells apart (and by an
// edit of formatting and comments only, which must not count). The
// expected delta is stated here; the instantiated ids it names are checked
// against what real `pytest --collect-only -q` collects on both trees.
#include <gtest/gtest.h>

#include <filesystem>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kOld = SourcePath("examples/diff/old");
const std::string kNew = SourcePath("examples/diff/new");
const std::string kFile = "test_upgrade.py::";

CommandResult DiffTrees(std::vector<std::string> extra) {
  std::vector<std::string> args = {
      "diff",        kOld, kNew, "--old-torch-python", TESTMAP_PYTHON, "--new-torch-python",
      TESTMAP_PYTHON};
  args.insert(args.end(), extra.begin(), extra.end());
  return Testmap(args);
}

std::map<std::string, json> ByGeneric(const json& answer) {
  std::map<std::string, json> out;
  for (const auto& g : answer.at("generics")) out[g.at("generic_id")] = g;
  return out;
}

std::vector<std::string> Changes(const json& g) { return g.at("changes"); }
std::set<std::string> Ids(const json& g, const char* key) {
  return g.at(key).get<std::set<std::string>>();
}

// The expected delta of examples/diff, as the pair's files were written.
TEST(DiffExamples, TreePairGivesTheStatedDelta) {
  CommandResult r = DiffTrees({"--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  json answer = json::parse(r.out);
  auto g = ByGeneric(answer);
  const std::string a = kFile + "TestArith::";
  const std::string cpu = kFile + "TestArithCPU::";

  EXPECT_EQ(g.at(a + "test_body_changes").at("status"), "changed");
  EXPECT_EQ(Changes(g.at(a + "test_body_changes")), std::vector<std::string>{"body"});

  EXPECT_EQ(Changes(g.at(a + "test_more_dtypes")),
            (std::vector<std::string>{"decorators", "params"}));
  EXPECT_EQ(Ids(g.at(a + "test_more_dtypes"), "ids_added"),
            std::set<std::string>{cpu + "test_more_dtypes_cpu_float64"});

  // Its decorator's text is the same; the module-level list it reads is not.
  EXPECT_EQ(Changes(g.at(a + "test_sizes")), std::vector<std::string>{"params"});
  EXPECT_EQ(Ids(g.at(a + "test_sizes"), "ids_added"),
            std::set<std::string>{cpu + "test_sizes_n_8_cpu"});
  EXPECT_TRUE(Ids(g.at(a + "test_sizes"), "ids_removed").empty());

  const json& renamed = g.at(a + "test_new_name");
  EXPECT_EQ(renamed.at("status"), "renamed");
  EXPECT_EQ(renamed.at("renamed_from"), a + "test_old_name");
  EXPECT_TRUE(Changes(renamed).empty());
  EXPECT_EQ(g.count(a + "test_old_name"), 0u);  // a rename, not a removal too

  EXPECT_EQ(g.at(a + "test_removed").at("status"), "removed");
  EXPECT_EQ(Ids(g.at(a + "test_removed"), "ids_removed"),
            std::set<std::string>{cpu + "test_removed_cpu"});
  EXPECT_EQ(g.at(a + "test_added").at("status"), "added");

  // setUp changed: every test of the class; a helper changed: the tests
  // that call it.
  EXPECT_EQ(Changes(g.at(kFile + "TestWithSetup::test_uses_base")),
            std::vector<std::string>{"setup"});
  EXPECT_EQ(Changes(g.at(kFile + "TestHelpers::test_uses_helper")),
            std::vector<std::string>{"setup"});

  // Not changed: formatting and comments only, the same source, the same
  // torch.
  for (const char* same :
       {"TestArith::test_formatting_only", "TestArith::test_unchanged", "TestArith::test_op_entry",
        "TestHelpers::test_no_helper", "test_pytest_style"})
    EXPECT_EQ(g.count(kFile + same), 0u) << same;
  EXPECT_EQ(g.size(), 8u);
  const json& c = answer.at("counts");
  EXPECT_EQ(c.at("added"), 1);
  EXPECT_EQ(c.at("removed"), 1);
  EXPECT_EQ(c.at("renamed"), 1);
  EXPECT_EQ(c.at("changed"), 5);
  EXPECT_EQ(c.at("unchanged"), 5);
}

// Node ids from `pytest --collect-only -q` run in `dir`.
std::set<std::string> Collected(const std::string& dir) {
  CommandResult r = Python({"-m", "pytest", "--collect-only", "-q", "."}, dir);
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  std::set<std::string> ids;
  for (const auto& line : Lines(r.out))
    if (line.find("::") != std::string::npos) ids.insert(line);
  return ids;
}

// The ids the delta adds and removes are exactly pytest's: the new tree's
// collection minus the old's, and the other way round.
TEST(DiffExamples, IdsAddedAndRemovedAreWhatPytestCollects) {
  // Both collections at once: each spends most of its time importing torch.
  auto old_ids = std::async(std::launch::async, [] { return Collected(kOld); });
  std::set<std::string> after = Collected(kNew), before = old_ids.get();
  ASSERT_FALSE(before.empty());
  CommandResult r = DiffTrees({"--format", "jsonl"});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::set<std::string> added, removed;
  for (const auto& line : Lines(r.out)) {
    json g = json::parse(line);
    for (const auto& id : g.at("ids_added")) added.insert(id);
    for (const auto& id : g.at("ids_removed")) removed.insert(id);
  }
  std::set<std::string> want_added, want_removed;
  for (const auto& id : after)
    if (!before.count(id)) want_added.insert(id);
  for (const auto& id : before)
    if (!after.count(id)) want_removed.insert(id);
  EXPECT_EQ(added, want_added);
  EXPECT_EQ(removed, want_removed);
}

// Scan files and trees are the same sides; nodeids lists what to re-trace.
TEST(DiffExamples, ScanFilesGiveTheSameDeltaAndNodeidsListTheRetrace) {
  TempDir dir;
  for (const auto& [side, tree] : {std::pair{"old", kOld}, std::pair{"new", kNew}}) {
    CommandResult s =
        Testmap({"scan", ".", "--torch-python", TESTMAP_PYTHON, "--format", "jsonl"}, tree);
    ASSERT_EQ(s.rc, 0) << s.err;
    dir.Write(std::string(side) + ".jsonl", s.out);
  }
  std::string old_scan = (dir.path() / "old.jsonl").string();
  std::string new_scan = (dir.path() / "new.jsonl").string();
  CommandResult from_scans = Testmap({"diff", old_scan, new_scan, "--format", "jsonl"});
  CommandResult from_trees = DiffTrees({"--format", "jsonl"});
  ASSERT_EQ(from_scans.rc, 0) << from_scans.err;
  EXPECT_EQ(from_scans.out, from_trees.out);

  CommandResult ids = Testmap({"diff", old_scan, new_scan, "--format", "nodeids"});
  ASSERT_EQ(ids.rc, 0) << ids.err;
  const std::string cpu = kFile + "TestArithCPU::";
  std::vector<std::string> want = {
      cpu + "test_added_cpu",
      cpu + "test_body_changes_cpu",
      cpu + "test_more_dtypes_cpu_float32",  // its decorators changed: every id
      cpu + "test_more_dtypes_cpu_float64",
      cpu + "test_new_name_cpu",
      cpu + "test_sizes_n_8_cpu",
      kFile + "TestHelpers::test_uses_helper",
      kFile + "TestWithSetup::test_uses_base",
  };
  EXPECT_EQ(Lines(ids.out), want);

  // Nothing to re-trace between a side and itself: the nodeids code.
  CommandResult none = Testmap({"diff", old_scan, old_scan, "--format", "nodeids"});
  EXPECT_EQ(none.rc, 4) << none.err;
  EXPECT_EQ(none.out, "");
}

// The OpInfo side alone: the same tree under two snapshots, the second
// with a DecorateInfo added to `mul` for this test and int64 dropped from
// its CPU dtypes (as an upgrade's OpInfo edits do).
TEST(DiffExamples, OpInfoEntryAndDtypesChangesShowWithTheSameSource) {
  std::string real =
      torch_snapshot::EnsureTorchSnapshot(TESTMAP_PYTHON, torch_snapshot::DefaultCacheDir());
  json snap = json::parse(ReadFile(real));
  std::vector<std::string> names = snap.at("dtype_names");
  int int64 = static_cast<int>(std::find(names.begin(), names.end(), "int64") - names.begin());
  bool edited = false;
  for (auto& op : snap.at("ops")) {
    if (op.at("name") != "mul" || op.at("variant_test_name") != "") continue;
    auto& lines = snap.at("entry_lines");
    lines.push_back(
        "decorate\tTestArith\ttest_op_entry\tcpu\tfloat32\tT\tunittest.case.expectedFailure");
    std::string entry = op.at("entry");
    op["entry"] = entry + (entry.empty() ? "" : " ") + std::to_string(lines.size() - 1);
    op.at("dtypes")[0] = op.at("dtypes")[0].get<uint64_t>() & ~(uint64_t{1} << int64);
    edited = true;
  }
  ASSERT_TRUE(edited);
  TempDir dir;
  std::string changed = dir.Write("snapshot.json", snap.dump());
  CommandResult r = Testmap(
      {"diff", kOld, kOld, "--old-snapshot", real, "--new-snapshot", changed, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto g = ByGeneric(json::parse(r.out));
  ASSERT_EQ(g.size(), 1u) << r.out;
  const json& op = g.at(kFile + "TestArith::test_op_entry");
  EXPECT_EQ(Changes(op), (std::vector<std::string>{"params", "entry", "dtypes"}));
  const std::string cpu = kFile + "TestArithCPU::test_op_entry_";
  EXPECT_EQ(Ids(op, "ids_removed"), std::set<std::string>{cpu + "mul_cpu_int64"});
  // add's ids are untouched; mul's float32 id has a new skip and dtypes.
  EXPECT_EQ(Ids(op, "ids_changed"), std::set<std::string>{cpu + "mul_cpu_float32"});
}

// The config's stale names, entries to re-evaluate, new unlisted tests,
// and a patch that `patch` applies and that leaves nothing stale.
TEST(DiffExamples, ConfigEffectAndPatch) {
  std::string config = SourcePath("examples/diff/config.yaml");
  CommandResult r =
      DiffTrees({"--config", config, "--root-token", "${TORCH_ROOT}/test", "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  json effect = json::parse(r.out).at("config");
  std::map<std::string, std::string> stale;
  for (const auto& s : effect.at("stale")) stale[s.at("name")] = s.at("renamed_to");
  EXPECT_EQ(stale, (std::map<std::string, std::string>{
                       {"TestArith::test_old_name", "TestArith::test_new_name"},
                       {"TestArith::test_removed", ""}}));
  std::set<std::string> reevaluate;
  for (const auto& e : effect.at("reevaluate")) reevaluate.insert(e.at("generic_id"));
  EXPECT_EQ(reevaluate, (std::set<std::string>{kFile + "TestArith::test_body_changes",
                                               kFile + "TestWithSetup::test_uses_base"}));
  ASSERT_EQ(effect.at("unlisted").size(), 1u);
  EXPECT_EQ(effect.at("unlisted")[0].at("generic_id"), kFile + "TestArith::test_added");
  EXPECT_EQ(effect.at("unlisted")[0].at("mode"), "skip");

  TempDir dir;
  std::string patched = dir.Write("config.yaml", ReadFile(config));
  std::string patch = dir.Write("config.patch", effect.at("patch"));
  CommandResult applied = RunCommand({"patch", patched, patch});
  ASSERT_EQ(applied.rc, 0) << applied.out << applied.err << effect.at("patch");
  std::string text = ReadFile(patched);
  EXPECT_NE(text.find("- names: [TestArith::test_new_name]"), std::string::npos) << text;
  EXPECT_EQ(text.find("test_removed"), std::string::npos) << text;
  EXPECT_NE(text.find("# one changed test, one unchanged"), std::string::npos) << text;
  CommandResult again =
      DiffTrees({"--config", patched, "--root-token", "${TORCH_ROOT}/test", "--format", "json"});
  ASSERT_EQ(again.rc, 0) << again.err;
  json after = json::parse(again.out).at("config");
  EXPECT_TRUE(after.at("stale").empty()) << after.dump();
  EXPECT_EQ(after.at("patch"), "");
}

TEST(DiffBadInput, NamesFileAndLineAndExitsOne) {
  std::string bad =
      WriteTempFile("bad.jsonl", "{\"nodeid\":\"a.py::t\",\"generic_id\":\"a.py::t\"}\nnot json\n");
  CommandResult r = Testmap({"diff", bad, bad});
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("bad.jsonl:2:"), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");

  CommandResult missing = Testmap({"diff", "/nonexistent/scan.jsonl", "/nonexistent/new.jsonl"});
  EXPECT_EQ(missing.rc, 1);
  EXPECT_NE(missing.err.find("/nonexistent/scan.jsonl"), std::string::npos) << missing.err;

  // A last line cut short is dropped, and the answer is partial.
  std::string cut = WriteTempFile(
      "cut.jsonl", "{\"nodeid\":\"a.py::t\",\"generic_id\":\"a.py::t\"}\n{\"nodeid\":\"a.p");
  CommandResult partial = Testmap({"diff", cut, cut, "--format", "json"});
  EXPECT_EQ(partial.rc, 1);
  EXPECT_NE(partial.err.find("cut.jsonl:2: last line cut short"), std::string::npos) << partial.err;

  CommandResult usage = Testmap({"diff", cut});
  EXPECT_EQ(usage.rc, 2);
}

}  // namespace
}  // namespace testmap::testing
