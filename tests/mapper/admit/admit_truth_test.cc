// `testmap admit` against an independent computation: admit_reference.py
// reads the trace and scan JSONL with plain json and asks torch's live
// dispatcher about CompositeImplicitAutograd; none of testmap's code. Every
// test's state, missing operators and dtype verdict must agree, for
// operator lists, dtype ceilings and backend records; --new-op must be the
// difference of two admissions and every --rank step must admit exactly
// what it says; --device answers for the backend's own scanned ids.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/mapper/admit/suite_index.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;
using Ids = std::set<std::string>;

// Operators a small backend could have: creation, comparison and the
// assertEqual machinery, and a few compute ops.
const char* kOps =
    "add.Tensor,add.Scalar,mul,sub,arange,ones,zeros,full,empty,eq,ne,le,abs,isnan,_local_scalar_"
    "dense,all,"
    "bitwise_and_,bitwise_or_,lift_fresh,uniform_,randn,view,_to_copy,copy_,relu";
const char* kDtypes = "float32,float64,int64,bool";

json Admit(std::vector<std::string> args) {
  args.insert(args.begin(), {"admit", "--index", SuiteIndex(), "--format", "json"});
  auto r = TestmapWithTorch(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  return json::parse(r.out);
}

json Reference(std::vector<std::string> args) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  args.insert(args.begin(), {SourcePath("tests/mapper/admit/admit_reference.py"), "--trace",
                             ev.trace, "--scan", ev.scan});
  auto r = Python(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  return json::parse(r.out);
}

Ids Admitted(const json& admission) {
  Ids out;
  for (const auto& t : admission["tests"])
    if (t["state"] == "admitted") out.insert(t["nodeid"].get<std::string>());
  return out;
}

void ExpectSameVerdicts(const json& testmap, const json& reference, bool every_state = true) {
  ASSERT_EQ(testmap["tests"].size(), reference.size());
  std::map<std::string, size_t> states;
  for (const auto& t : testmap["tests"]) {
    std::string id = t["nodeid"];
    ASSERT_TRUE(reference.contains(id)) << id;
    const json& ref = reference[id];
    std::vector<std::string> missing;
    bool dtype = false;
    for (const auto& r : t["reasons"]) {
      if (r["kind"] == "op") missing.push_back(r["op"]);
      if (r["kind"] == "dtype") dtype = true;
    }
    EXPECT_EQ(t["state"], ref["state"]) << id;
    EXPECT_EQ(missing, ref["missing"].get<std::vector<std::string>>()) << id;
    EXPECT_EQ(dtype, ref["dtype_blocked"].get<bool>()) << id;
    ++states[t["state"]];
  }
  // A comparison that cannot fail is no test: every state must occur.
  EXPECT_GT(states["admitted"], 10u);
  if (!every_state) return;
  EXPECT_GT(states["blocked"], 10u);
  EXPECT_GT(states["unknown"], 0u);
}

TEST(AdmitTruth, OperatorListsAndDtypesMatchTheReference) {
  ExpectSameVerdicts(Admit({"--ops", kOps, "--dtypes", kDtypes}),
                     Reference({"--ops", kOps, "--dtypes", kDtypes}));
  // Packets only, no dtype rule.
  const char* packets =
      "add,mul,sub,eq,ne,le,abs,all,isnan,_local_scalar_dense,bitwise_and_,bitwise_or_,arange,"
      "ones,empty,lift_fresh,view,_to_copy,copy_,zeros,full,uniform_,randn";
  ExpectSameVerdicts(Admit({"--ops", packets}), Reference({"--ops", packets}));
}

TEST(AdmitTruth, BackendRecordsMatchTheReference) {
  // Kernels on PrivateUse1 count; an autograd kernel, a fallthrough and a
  // stub do not; a CompositeExplicitAutograd kernel serves every key.
  std::string records;
  for (std::string op : {"aten::add.Tensor", "aten::mul.Tensor", "aten::eq.Tensor", "aten::abs",
                         "aten::ne.Scalar", "aten::all", "aten::isnan", "aten::empty.memory_format",
                         "aten::_local_scalar_dense", "aten::arange", "aten::ones"})
    records +=
        R"({"op":")" + op +
        R"(","dispatch_key":"PrivateUse1","kind":"kernel","mechanism":"m.impl","file":"csrc/ops.cpp","line":12,"evidence":"static"})"
        "\n";
  records +=
      R"({"op":"aten::sub.Tensor","dispatch_key":"AutogradPrivateUse1","kind":"kernel","mechanism":"m.impl","file":"csrc/autograd.cpp","line":3,"evidence":"static"})"
      "\n"
      R"({"op":"aten::view","dispatch_key":"PrivateUse1","kind":"fallthrough","mechanism":"m.impl","file":null,"line":null,"evidence":"runtime"})"
      "\n"
      R"({"op":"aten::zeros","dispatch_key":"CompositeExplicitAutograd","kind":"kernel","mechanism":"register_kernel","file":"toy/k.py","line":4,"evidence":"static"})"
      "\n"
      R"({"op":null,"dispatch_key":"PrivateUse1","kind":"stub","mechanism":"REGISTER_PRIVATEUSE1_DISPATCH","file":"csrc/stub.cpp","line":9,"evidence":"static"})"
      "\n";
  std::string path = WriteTempFile("toy.jsonl", records);
  json testmap = Admit({"--supported", path, "--backend", "toy"});
  ExpectSameVerdicts(testmap, Reference({"--records", path}));
  EXPECT_EQ(testmap["capabilities"]["kernels"], 12);  // 11 + CompositeExplicitAutograd
}

TEST(AdmitTruth, TheToyBackendsLiveRecordsMatchTheReference) {
  // examples/backend's registrations as the live dispatcher has them.
  auto dump =
      Testmap({"backend", "dump", "--torch-python", TESTMAP_PYTHON, "--python-path",
               SourcePath("examples/backend"), "--import", "toy_backend", "--format", "jsonl"},
              "", {{"TOY_BACKEND_LIB_DIR", std::string(TESTMAP_BINARY_DIR) + "/lib"}});
  ASSERT_EQ(dump.rc, 0) << dump.err;
  std::string kernels;  // without its CPU fallback: what its own kernels run
  size_t fallbacks = 0;
  for (const auto& line : Lines(dump.out)) {
    if (json::parse(line)["kind"] == "fallback") {
      ++fallbacks;
      continue;
    }
    kernels += line + "\n";
  }
  ASSERT_EQ(fallbacks, 1u);
  std::string path = WriteTempFile("toy-kernels.jsonl", kernels);
  json own = Admit({"--supported", path, "--backend", "toy"});
  ExpectSameVerdicts(own, Reference({"--records", path}));
  // With its fallback every operator reaches the backend: every test with
  // complete evidence is admitted, the others unknown.
  json all = Admit({"--supported", WriteTempFile("toy.jsonl", dump.out)});
  size_t passed = 0;
  for (const auto& line : Lines(ReadFile(ExampleSuiteEvidence().trace))) {
    json rec = json::parse(line);
    if (rec["type"] == "test" && rec["outcome"] == "passed") ++passed;
  }
  EXPECT_EQ(all["counts"]["blocked"], 0);
  EXPECT_EQ(all["counts"]["admitted"], passed);
}

TEST(AdmitTruth, NewOpIsTheDifferenceOfTwoAdmissions) {
  Ids before = Admitted(Admit({"--ops", kOps, "--dtypes", kDtypes}));
  for (std::string added : {"sum", "aten::t,aten::mm", "relu,_softmax,detach"}) {
    Ids after = Admitted(Admit({"--ops", std::string(kOps) + "," + added, "--dtypes", kDtypes}));
    Ids expected;
    for (const auto& id : after)
      if (!before.count(id)) expected.insert(id);
    auto r = TestmapWithTorch({"admit", "--index", SuiteIndex(), "--ops", kOps, "--dtypes", kDtypes,
                               "--new-op", added, "--format", "nodeids"});
    auto lines = Lines(r.out);
    EXPECT_EQ(Ids(lines.begin(), lines.end()), expected) << added;
    EXPECT_EQ(r.rc, expected.empty() ? 4 : 0) << added << r.err;
  }
}

TEST(AdmitTruth, EveryRankStepAdmitsWhatItSays) {
  json ranked = Admit({"--ops", kOps, "--dtypes", kDtypes, "--rank", "--steps", "4"});
  const json& steps = ranked["rank"]["steps"];
  ASSERT_EQ(steps.size(), 4u);
  size_t base = Admitted(ranked).size();
  std::string ops = kOps;
  // Rank names overloads; `aten::sum` spelled so is the packet, the default
  // overload alone is `aten::sum.default`.
  auto exactly = [](std::string op) {
    return op.find('.') == std::string::npos ? op + ".default" : op;
  };
  for (const auto& step : steps) {
    for (const auto& op : step["ops"]) ops += "," + exactly(op);
    size_t now = Admitted(Admit({"--ops", ops, "--dtypes", kDtypes})).size();
    EXPECT_EQ(now - base, step["total_tests"].get<size_t>()) << step.dump();
  }
  // The single-operator gains are what --new-op of that operator admits.
  const json& top = ranked["rank"]["ops"][0];
  auto r = TestmapWithTorch({"admit", "--index", SuiteIndex(), "--ops", kOps, "--dtypes", kDtypes,
                             "--new-op", exactly(top["op"]), "--format", "nodeids"});
  EXPECT_EQ(Lines(r.out).size(), top["tests"].get<size_t>()) << top.dump();
  EXPECT_GT(top["tests"].get<size_t>(), 0u);
}

TEST(AdmitTruth, BackendIdsTakeTheVerdictOfTheirTracedTwin) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  std::string index = ScratchDir("device") + "/index";
  const std::string& scan_path = ToyDeviceScan();
  ASSERT_EQ(Testmap({"ingest", "--index", index, ev.scan, ev.trace, scan_path}).rc, 0);
  auto cpu = TestmapWithTorch({"admit", "--index", index, "--ops", kOps, "--format", "json"});
  auto toy = TestmapWithTorch({"admit", "--index", index, "--ops", kOps, "--device",
                               "privateuse1:toy", "--format", "json"});
  ASSERT_EQ(toy.rc, 0) << toy.err;
  // The join done here from the scan records: generic test + params minus device.
  auto key = [](const json& rec) {
    json p = rec["params"];
    p.erase("device");
    return rec["generic_id"].get<std::string>() + p.dump();
  };
  std::map<std::string, std::string> cpu_id, cpu_state;
  for (const auto& line : Lines(ReadFile(ev.scan))) {
    json rec = json::parse(line);
    cpu_id[key(rec)] = rec["nodeid"];
  }
  json cpu_answer = json::parse(cpu.out);  // a named value: the loop must not outlive it
  for (const auto& t : cpu_answer["tests"]) cpu_state[t["nodeid"]] = t["state"];
  json answer = json::parse(toy.out);
  std::map<std::string, json> by_id;
  for (const auto& t : answer["tests"]) by_id[t["nodeid"]] = t;
  size_t joined = 0, lines = 0;
  for (const auto& line : Lines(ReadFile(scan_path))) {
    json rec = json::parse(line);
    if (rec["params"].value("device", "") != "toy") continue;
    ++lines;
    std::string id = rec["nodeid"];
    ASSERT_TRUE(by_id.count(id)) << id;
    auto twin = cpu_id.find(key(rec));
    if (twin == cpu_id.end()) {
      EXPECT_EQ(by_id[id]["state"], "unknown") << id;
    } else {
      ++joined;
      EXPECT_EQ(by_id[id]["state"], cpu_state[twin->second]) << id;
      EXPECT_EQ(by_id[id]["evidence_id"], twin->second) << id;
    }
  }
  EXPECT_EQ(by_id.size(), lines);  // only the backend's own ids
  EXPECT_GT(joined, 50u);
  EXPECT_EQ(answer["coverage"]["scanned"], lines);

  // The share of scanned tests with evidence, counted here from the files:
  // the toy ids were scanned and never traced.
  Ids scanned, traced;
  for (const auto& path : {ev.scan, scan_path})
    for (const auto& line : Lines(ReadFile(path))) scanned.insert(json::parse(line)["nodeid"]);
  for (const auto& line : Lines(ReadFile(ev.trace))) {
    json rec = json::parse(line);
    if (rec["type"] == "test") traced.insert(rec["nodeid"].get<std::string>());
  }
  size_t with = 0;
  for (const auto& id : scanned) with += traced.count(id);
  auto stats = Testmap({"stats", "--index", index, "--format", "json"});
  ASSERT_EQ(stats.rc, 0) << stats.err;
  json share = json::parse(stats.out)["evidence"];
  EXPECT_EQ(share["scanned"], scanned.size());
  EXPECT_EQ(share["with_evidence"], with);
  EXPECT_LT(with, scanned.size());
  json whole = json::parse(cpu.out)["coverage"];
  EXPECT_EQ(whole["scanned"], share["scanned"]);
  EXPECT_EQ(whole["with_evidence"], share["with_evidence"]);
}

TEST(AdmitTruth, ConfigGlobalResolvesOpInfosToWhatTheirTestsDispatch) {
  // supported_ops names OpInfos: the @ops tests of `add` run on the device,
  // so what they dispatch is runnable, and they are admitted within the
  // dtype ceiling; the tests of `mul` (not declared) stay blocked unless
  // everything they dispatch is covered by `add`'s tests.
  std::string cfg = WriteTempFile("global.yaml", R"(test_suite_config:
  files: []
  global:
    supported_dtypes: [{name: float32}, {name: float64}]
    supported_ops:
      - name: add
)");
  json a = Admit({"--supported", cfg});
  size_t add_tests = 0;
  for (const auto& t : a["tests"]) {
    if (t.value("opinfo", "") != "add" || t["outcome"] != "passed") continue;
    bool in_ceiling = true;
    for (const auto& d : t["dtypes"]) in_ceiling = in_ceiling && (d == "float32" || d == "float64");
    EXPECT_EQ(t["state"], in_ceiling ? "admitted" : "blocked") << t.dump();
    add_tests += in_ceiling;
  }
  EXPECT_GT(add_tests, 3u);
}

}  // namespace
}  // namespace testmap::testing
