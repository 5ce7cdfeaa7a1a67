// `testmap query` against the trace itself: the expected operator -> tests
// map is computed here straight from the JSONL (plain JSON reading and
// string handling, none of the index code), and compared with what the CLI
// answers for every operator of a real trace of examples/suite.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {

namespace fs = std::filesystem;
namespace {

using nlohmann::json;
using Ids = std::set<std::string>;

// What `query` answers by default: observations of role `test` (the test's
// own code), and, for --role, every (overload, role).
struct Truth {
  std::map<std::string, Ids> by_overload;  // "aten::add.Tensor" -> tests
  std::map<std::string, Ids> by_packet;    // "aten::add" -> tests (incl. static)
  std::map<std::pair<std::string, std::string>, Ids> by_op_role;  // (overload, role)
  std::map<std::string, Ids> by_overload_any_role;
  std::map<std::pair<std::string, std::string>, Ids> by_op_path;   // (overload, evidence)
  std::map<std::pair<std::string, std::string>, Ids> by_op_dtype;  // (overload, dtype)
  std::map<std::string, Ids> static_by_packet;  // "aten::abs" -> @ops tests of OpInfo abs
};

std::string PacketOf(const std::string& op) {
  size_t ns = op.find("::");
  size_t dot = op.find('.', ns == std::string::npos ? 0 : ns + 2);
  return dot == std::string::npos ? op : op.substr(0, dot);
}

Truth ComputeTruth(const SuiteEvidence& ev) {
  Truth t;
  for (const auto& line : Lines(ReadFile(ev.trace))) {
    json rec = json::parse(line);
    if (rec["type"] != "test") continue;
    for (const auto& op : rec["ops"]) {
      std::string name = op["op"];
      std::string role = op.value("role", "test");
      t.by_op_role[{name, role}].insert(rec["nodeid"].get<std::string>());
      t.by_overload_any_role[name].insert(rec["nodeid"].get<std::string>());
      if (role != "test") continue;
      t.by_overload[name].insert(rec["nodeid"].get<std::string>());
      t.by_packet[PacketOf(name)].insert(rec["nodeid"].get<std::string>());
      t.by_op_path[{name, op["evidence"]}].insert(rec["nodeid"].get<std::string>());
      for (const auto& d : op["dtypes"])
        t.by_op_dtype[{name, d}].insert(rec["nodeid"].get<std::string>());
    }
  }
  // Static evidence: @ops OpInfo names that are plain aten names.
  for (const auto& line : Lines(ReadFile(ev.scan))) {
    json rec = json::parse(line);
    std::string op = rec["params"].value("op", "");
    if (!op.empty() && op.find('.') == std::string::npos) {
      t.by_packet["aten::" + op].insert(rec["nodeid"].get<std::string>());
      t.static_by_packet["aten::" + op].insert(rec["nodeid"].get<std::string>());
    }
  }
  return t;
}

class QueryTruthTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const SuiteEvidence& ev = ExampleSuiteEvidence();
    index_ = new std::string(ScratchDir("truth") + "/index");
    auto r = Testmap({"ingest", "--index", *index_, ev.scan, ev.trace});
    ASSERT_EQ(r.rc, 0) << r.err;
    truth_ = new Truth(ComputeTruth(ev));
  }
  static Ids Query(std::vector<std::string> args, const std::string& index = "") {
    args.insert(args.begin(),
                {"query", "--index", index.empty() ? *index_ : index, "--format", "nodeids"});
    auto r = Testmap(args);
    EXPECT_EQ(r.rc, 0) << r.err;
    auto lines = Lines(r.out);
    return Ids(lines.begin(), lines.end());
  }
  static std::string* index_;
  static Truth* truth_;
};
std::string* QueryTruthTest::index_;
Truth* QueryTruthTest::truth_;

TEST_F(QueryTruthTest, EveryTracedOverloadAnswersExactlyItsTests) {
  ASSERT_GT(truth_->by_overload.size(), 50u);
  for (const auto& [op, ids] : truth_->by_overload) {
    // A name without overload is the default overload: spell it `.default`,
    // since the bare name asks for the whole packet.
    std::string query = op.find('.') == std::string::npos ? op + ".default" : op;
    EXPECT_EQ(Query({"--op", query}), ids) << query;
  }
}

TEST_F(QueryTruthTest, EveryPacketAnswersAllItsOverloadsAndStaticEvidence) {
  for (const auto& [packet, ids] : truth_->by_packet) {
    if (!truth_->by_overload.count(packet) && packet.find("aten::") == 0) {
      bool traced = false;
      for (const auto& [op, _] : truth_->by_overload) traced |= PacketOf(op) == packet;
      if (!traced) continue;  // static-only OpInfo names are checked below
    }
    EXPECT_EQ(Query({"--op", packet}), ids) << packet;
  }
}

TEST_F(QueryTruthTest, PathAndDtypeFiltersMatchTheTrace) {
  size_t compile_ops = 0;
  for (const auto& [key, ids] : truth_->by_op_path) {
    const auto& [op, evidence] = key;
    std::string query = op.find('.') == std::string::npos ? op + ".default" : op;
    EXPECT_EQ(Query({"--op", query, "--path", evidence}), ids) << query << " " << evidence;
    compile_ops += evidence == "compile";
  }
  EXPECT_GT(compile_ops, 0u) << "the trace has no torch.compile evidence";
  for (const auto& [key, ids] : truth_->by_op_dtype) {
    const auto& [op, dtype] = key;
    if (op.find("scaled_mm") == std::string::npos && op != "aten::mm" && op != "aten::add.Tensor")
      continue;
    std::string query = op.find('.') == std::string::npos ? op + ".default" : op;
    EXPECT_EQ(Query({"--op", query, "--dtype", dtype}), ids) << query << " " << dtype;
  }
}

TEST_F(QueryTruthTest, RolesWidenTheAnswerExactlyAsTheTraceSays) {
  ASSERT_GT(truth_->by_op_role.size(), truth_->by_overload.size());
  for (const auto& [op, ids] : truth_->by_overload_any_role) {
    std::string query = op.find('.') == std::string::npos ? op + ".default" : op;
    EXPECT_EQ(Query({"--op", query, "--role", "all"}), ids) << query;
  }
  size_t checked = 0;
  for (const auto& [key, ids] : truth_->by_op_role) {
    const auto& [op, role] = key;
    if (op != "aten::abs" && op != "aten::eq.Tensor" && op != "aten::view" && op != "aten::ones")
      continue;
    // The overload alone: a packet would add its other overloads and the
    // static evidence of @ops tests.
    std::string query = op.find('.') == std::string::npos ? op + ".default" : op;
    EXPECT_EQ(Query({"--op", query, "--role", role}), ids) << query << " " << role;
    ++checked;
  }
  EXPECT_GE(checked, 6u);
  // Lists and repeats mean any of them.
  Ids abs_assert_or_test = truth_->by_op_role[{"aten::abs", "assert"}];
  for (const auto& id : truth_->by_overload["aten::abs"]) abs_assert_or_test.insert(id);
  EXPECT_EQ(Query({"--op", "abs.default", "--role", "test,assert"}), abs_assert_or_test);
  EXPECT_EQ(Query({"--op", "abs.default", "--role", "assert", "--role", "test"}),
            abs_assert_or_test);
  // assertEqual's abs is most of abs: the default leaves it out, and says so.
  const size_t own = truth_->by_overload["aten::abs"].size();
  const size_t all = truth_->by_overload_any_role["aten::abs"].size();
  EXPECT_GT(all, 3 * own + 20) << own << " " << all;
  auto table = Testmap({"query", "--index", *index_, "--op", "abs.default"});
  EXPECT_NE(table.out.find(std::to_string(own) + " tests run aten::abs in role test"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find(std::to_string(all - own) + " more tests run it only in other roles"),
            std::string::npos)
      << table.out;
  auto j = json::parse(
      Testmap({"query", "--index", *index_, "--op", "abs", "--role", "all", "--format", "json"})
          .out);
  EXPECT_EQ(j["query"]["roles"],
            (std::vector<std::string>{"test", "assert", "inputs", "setup", "teardown"}));
  std::set<std::string> roles;
  for (const auto& t : j["tests"])
    for (const auto& r : t["ops"]["aten::abs"]["roles"]) roles.insert(r);
  EXPECT_TRUE(roles.count("assert") && roles.count("test"));
}

TEST_F(QueryTruthTest, UnknownRoleFailsWithSuggestions) {
  auto r = Testmap({"query", "--index", *index_, "--op", "abs", "--role", "asert"});
  EXPECT_EQ(r.rc, 3) << r.err;
  EXPECT_NE(r.err.find("unknown role `asert`"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean: assert"), std::string::npos) << r.err;
}

TEST_F(QueryTruthTest, ShowAndOpsCarryRoles) {
  const Ids& view_tests = truth_->by_op_role.at({"aten::view", "test"});
  std::string id;
  for (const auto& t : view_tests) {
    if (t.find("test_view_checked_with_assert_equal") != std::string::npos) id = t;
  }
  ASSERT_FALSE(id.empty());
  json doc = json::parse(Testmap({"show", "--index", *index_, id}).out);
  std::set<std::string> own, asserted;
  for (const auto& op : doc["ops"]) {
    for (const auto& o : op["observations"]) {
      if (o["role"] == "test") own.insert(op["op"]);
      if (o["role"] == "assert") asserted.insert(op["op"]);
    }
  }
  EXPECT_EQ(own, (std::set<std::string>{"aten::view"}));
  EXPECT_TRUE(asserted.count("aten::abs") && asserted.count("aten::eq.Tensor"));
  json ops = json::parse(Testmap({"ops", "--index", *index_, "--format", "json"}).out);
  bool seen = false;
  for (const auto& op : ops["ops"]) {
    if (op["op"] != "aten::abs") continue;
    seen = true;
    // The row of aten::abs holds its default overload and the static
    // evidence of @ops tests of OpInfo abs (both are spelled aten::abs).
    Ids own = truth_->by_overload["aten::abs"], any = truth_->by_overload_any_role["aten::abs"];
    for (const auto& id : truth_->static_by_packet["aten::abs"]) own.insert(id), any.insert(id);
    EXPECT_EQ(op["tests"], own.size());
    EXPECT_EQ(op["tests_any_role"], any.size());
    EXPECT_EQ(op["tests_by_role"]["assert"], (truth_->by_op_role[{"aten::abs", "assert"}].size()));
  }
  EXPECT_TRUE(seen);
}

TEST_F(QueryTruthTest, ScaledMmWithFloat8) {
  Ids expected = truth_->by_packet.at("aten::_scaled_mm");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(Query({"--op", "_scaled_mm"}), expected);
  EXPECT_EQ(Query({"--op", "_scaled_mm", "--dtype", "float8_e5m2"}),
            (truth_->by_op_dtype[{"aten::_scaled_mm", "float8_e5m2"}]));
  auto r = Testmap({"query", "--index", *index_, "--op", "_scaled_mm", "--format", "json"});
  ASSERT_EQ(r.rc, 0);
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["count"], expected.size());
  for (const auto& t : doc["tests"]) {
    EXPECT_TRUE(t["ops"].contains("aten::_scaled_mm"));
    EXPECT_EQ(t["file"], "test_matmul.py");
    EXPECT_GT(t["line_start"].get<int>(), 0);
    EXPECT_EQ(t["outcome"], "passed");
  }
}

TEST_F(QueryTruthTest, DeviceFilter) {
  // The example suite runs on the CPU: --device cpu keeps everything,
  // another device matches nothing (and that is an answer, not an error).
  Ids all = truth_->by_packet.at("aten::mm");
  EXPECT_EQ(Query({"--op", "mm", "--path", "eager", "--device", "cpu"}),
            Query({"--op", "mm", "--path", "eager"}));
  auto r =
      Testmap({"query", "--index", *index_, "--op", "mm", "--device", "cuda", "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["count"], 0);
  EXPECT_FALSE(all.empty());
}

TEST_F(QueryTruthTest, EverySpellingResolvesToTheSameAnswer) {
  Ids expected = truth_->by_overload.at("aten::add.Tensor");
  for (std::string spelling :
       {"add.Tensor", "aten::add.Tensor", "aten.add.Tensor", "torch.ops.aten.add.Tensor"}) {
    EXPECT_EQ(Query({"--op", spelling}), expected) << spelling;
  }
  Ids packet = truth_->by_packet.at("aten::add");
  for (std::string spelling : {"add", "aten::add", "torch.ops.aten.add"}) {
    EXPECT_EQ(Query({"--op", spelling}), packet) << spelling;
  }
}

TEST_F(QueryTruthTest, SeveralOpsMeanAllOrWithAnyAny) {
  const Ids& a = truth_->by_packet.at("aten::mm");
  const Ids& b = truth_->by_packet.at("aten::add");
  Ids both, either = a;
  for (const auto& id : a) {
    if (b.count(id)) both.insert(id);
  }
  either.insert(b.begin(), b.end());
  EXPECT_EQ(Query({"--op", "mm", "--op", "add"}), both);
  EXPECT_EQ(Query({"--op", "mm", "--op", "add", "--any"}), either);
}

TEST_F(QueryTruthTest, UnknownOperatorFailsWithSuggestions) {
  auto r = Testmap({"query", "--index", *index_, "--op", "scaled_mm"});
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("aten::scaled_mm"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("did you mean: aten::_scaled_mm"), std::string::npos) << r.err;
  r = Testmap({"query", "--index", *index_, "--op", "no such op"});
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("not an operator name"), std::string::npos) << r.err;
}

// Operators torch's live dispatcher registers but no test in the index runs
// are empty answers (exit 0; 4 for nodeids); a name torch lacks too is an
// unknown name (exit 3) with suggestions from the whole registry.
TEST_F(QueryTruthTest, OperatorsTorchRegistersWithoutTestsAreEmptyAnswers) {
  auto live = Python({"-c",
                      "import json, torch; print(json.dumps(sorted(n for n in "
                      "torch._C._dispatch_get_all_op_names() if n.startswith('aten::'))))"});
  ASSERT_EQ(live.rc, 0) << live.err;
  std::set<std::string> in_index;
  for (const auto& op :
       json::parse(Testmap({"ops", "--index", *index_, "--format", "json"}).out)["ops"])
    in_index.insert(op["op"].get<std::string>());
  std::vector<std::string> untested;
  for (const auto& name : json::parse(live.out)) {
    std::string n = name.get<std::string>();
    std::string packet = n.substr(0, n.find('.'));
    if (!in_index.count(n) && !in_index.count(packet)) untested.push_back(n);
  }
  ASSERT_GT(untested.size(), 100u);
  for (size_t i = 0; i < untested.size(); i += untested.size() / 5) {
    auto r = Testmap({"query", "--index", *index_, "--op", untested[i], "--format", "json"});
    ASSERT_EQ(r.rc, 0) << untested[i] << ": " << r.err;
    json doc = json::parse(r.out);
    EXPECT_EQ(doc["count"], 0);
    EXPECT_EQ(doc["untested_ops"], json::array({untested[i]}));
    r = Testmap({"query", "--index", *index_, "--op", untested[i]});
    EXPECT_NE(r.out.find("torch registers " + untested[i] + ", but no test in the index runs it"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(Testmap({"query", "--index", *index_, "--op", untested[i], "--format", "nodeids"}).rc,
              4);
  }
  // One letter dropped: torch has no such operator, and the suggestion is
  // the registry's.
  std::string typo = "aten::choleskyy";
  ASSERT_FALSE(std::count(untested.begin(), untested.end(), typo));
  auto r = Testmap({"query", "--index", *index_, "--op", typo});
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("did you mean: aten::cholesky"), std::string::npos) << r.err;
}

TEST_F(QueryTruthTest, GenericGroupingFollowsTheScan) {
  std::map<std::string, std::string> generic_of;
  for (const auto& line : Lines(ReadFile(ExampleSuiteEvidence().scan))) {
    json rec = json::parse(line);
    generic_of[rec["nodeid"]] = rec["generic_id"];
  }
  Ids expected;
  for (const auto& id : truth_->by_packet.at("aten::_scaled_mm"))
    expected.insert(generic_of.at(id));
  EXPECT_EQ(Query({"--op", "_scaled_mm", "--group", "generic"}), expected);
}

TEST_F(QueryTruthTest, EveryFormatParsesAndAgrees) {
  Ids expected = truth_->by_packet.at("aten::_scaled_mm");
  auto jsonl = Testmap({"query", "--index", *index_, "--op", "_scaled_mm", "--format", "jsonl"});
  Ids from_jsonl;
  for (const auto& line : Lines(jsonl.out))
    from_jsonl.insert(json::parse(line)["nodeid"].get<std::string>());
  EXPECT_EQ(from_jsonl, expected);
  auto yaml = Testmap({"query", "--index", *index_, "--op", "_scaled_mm", "--format", "yaml"});
  EXPECT_EQ(yaml.rc, 0);
  for (const auto& id : expected)
    EXPECT_NE(yaml.out.find("\"" + id + "\""), std::string::npos) << id;
  auto table = Testmap({"query", "--index", *index_, "--op", "_scaled_mm"});
  EXPECT_NE(table.out.find(std::to_string(expected.size()) + " tests run aten::_scaled_mm"),
            std::string::npos)
      << table.out;
}

TEST_F(QueryTruthTest, ShowGivesEverythingAboutATest) {
  std::string id = *truth_->by_packet.at("aten::_scaled_mm").begin();
  auto r = Testmap({"show", "--index", *index_, id});
  ASSERT_EQ(r.rc, 0) << r.err;
  json doc = json::parse(r.out);
  EXPECT_EQ(doc["nodeid"], id);
  EXPECT_EQ(doc["file"], "test_matmul.py");
  EXPECT_TRUE(doc["params"].contains("dtypes"));
  EXPECT_FALSE(doc["decorators"].empty());
  bool has_scaled_mm = false;
  for (const auto& op : doc["ops"]) has_scaled_mm |= op["op"] == "aten::_scaled_mm";
  EXPECT_TRUE(has_scaled_mm);
  ASSERT_EQ(doc["outcomes"].size(), 1u);
  std::string run = doc["outcomes"][0]["run"];
  EXPECT_TRUE(doc["runs"][run]["metadata"]["torch"].contains("version"));
  // A generic id lists its instantiations.
  r = Testmap({"show", "--index", *index_, doc["generic_id"]});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_GE(json::parse(r.out)["tests"].size(), 1u);
  r = Testmap({"show", "--index", *index_, "test_nope.py::T::test_x"});
  EXPECT_NE(r.rc, 0);
}

TEST_F(QueryTruthTest, OpsListsEveryOperatorWithItsTestCount) {
  auto r = Testmap({"ops", "--index", *index_, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::map<std::string, size_t> listed;
  json doc = json::parse(r.out);
  for (const auto& op : doc["ops"]) listed[op["op"]] = op["tests_any_role"];
  for (const auto& [op, ids] : truth_->by_overload_any_role) {
    EXPECT_GE(listed[op], ids.size())
        << op;  // the default overload shares its name with static evidence
  }
  auto v = Testmap({"index", "verify", "--index", *index_});
  EXPECT_EQ(v.rc, 0) << v.out;
}

TEST_F(QueryTruthTest, IngestingTheSameTraceTwiceChangesNothing) {
  auto before = Testmap({"index", "dump", "--index", *index_});
  auto r = Testmap(
      {"ingest", "--index", *index_, ExampleSuiteEvidence().trace, ExampleSuiteEvidence().scan});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(Testmap({"index", "dump", "--index", *index_}).out, before.out);
}

TEST_F(QueryTruthTest, ShardsOfSeveralRunsMergeAndKeepTheirRun) {
  // A second CI job's shard: same tests, another run (its run record differs).
  std::string text = ReadFile(ExampleSuiteEvidence().trace);
  size_t at = text.find("\"start_time\":\"");
  ASSERT_NE(at, std::string::npos);
  text.replace(at + 14, 4, "1999");
  std::string dir = ScratchDir("merge");
  std::string shard = dir + "/trace-gw1.jsonl";
  std::ofstream(shard) << text;
  std::string index = dir + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ExampleSuiteEvidence().scan,
                     ExampleSuiteEvidence().trace})
                .rc,
            0);
  Ids one_run = Query({"--op", "mm"}, index);
  ASSERT_EQ(Testmap({"ingest", "--index", index, shard}).rc, 0);
  EXPECT_EQ(Query({"--op", "mm"}, index), one_run);
  auto q = Testmap({"query", "--index", index, "--op", "_scaled_mm", "--format", "json"});
  json doc = json::parse(q.out);
  ASSERT_FALSE(doc["tests"].empty());
  for (const auto& t : doc["tests"]) EXPECT_EQ(t["ops"]["aten::_scaled_mm"]["runs"].size(), 2u);
  auto stats = json::parse(Testmap({"stats", "--index", index, "--format", "json"}).out);
  EXPECT_EQ(stats["runs"].size(), 2u);
  EXPECT_EQ(Testmap({"index", "verify", "--index", index}).rc, 0);
}

}  // namespace
}  // namespace testmap::testing

namespace testmap::testing {
namespace {

// The defaults a user gets: `testmap trace` writes .testmap/traces/, and
// `testmap ingest` / `query` use .testmap/ of the current directory, which
// then holds both.
TEST(DefaultIndexTest, DotTestmapHoldsTracesAndTheIndex) {
  std::string cwd = ScratchDir("default");
  fs::create_directories(cwd + "/.testmap/traces");
  fs::copy_file(ExampleSuiteEvidence().trace, cwd + "/.testmap/traces/trace-main.jsonl");
  auto r = Testmap({"ingest", ".testmap/traces", ExampleSuiteEvidence().scan}, cwd);
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(fs::exists(cwd + "/.testmap/CURRENT"));
  auto q = Testmap({"query", "--op", "_scaled_mm", "--format", "nodeids"}, cwd);
  ASSERT_EQ(q.rc, 0) << q.err;
  EXPECT_FALSE(q.out.empty());
  // A second trace run into the same place still ingests.
  EXPECT_EQ(Testmap({"ingest", ".testmap/traces"}, cwd).rc, 0);
}

}  // namespace
}  // namespace testmap::testing
