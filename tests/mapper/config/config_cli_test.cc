// `testmap config generate|check|explain` end to end on the example suite:
// a generated config checks clean and explains to exactly the admission it
// came from; a hand-written config explains as the framework's rules say;
// --base keeps the text where the evidence agrees and edits the rest.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/mapper/admit/suite_index.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

const char* kOps =
    "add.Tensor,add.Scalar,mul,sub,arange,ones,zeros,full,empty,eq,ne,le,abs,isnan,_local_scalar_"
    "dense,all,"
    "bitwise_and_,bitwise_or_,lift_fresh,uniform_,randn,view,_to_copy,copy_,relu";
const char* kDtypes = "float32,float64,int64,bool";
const char* kRoot = "${TORCH_ROOT}/test";

std::string Generate(std::vector<std::string> extra = {}, CommandResult* result = nullptr) {
  std::vector<std::string> args = {"config",       "generate", "--index",   SuiteIndex(),
                                   "--ops",        kOps,       "--dtypes",  kDtypes,
                                   "--root-token", kRoot,      "--backend", "toy"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto r = TestmapWithTorch(args);
  EXPECT_EQ(r.rc, 0) << r.err;
  if (result) *result = r;
  return r.out;
}

// nodeid -> mode ("" when the config does not govern the test).
std::map<std::string, std::string> Explain(const std::string& config) {
  auto r = Testmap({"config", "explain", config, "--index", SuiteIndex(), "--root-token", kRoot,
                    "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  std::map<std::string, std::string> out;
  json doc = json::parse(r.out);  // named: a range-for over a temporary's member dangles
  for (const auto& t : doc["tests"])
    out[t["nodeid"].get<std::string>()] =
        t["mode"].is_null() ? std::string() : t["mode"].get<std::string>();
  return out;
}

// Generic names of entries generate marked inexact (their comment says so).
std::set<std::string> InexactNames(const std::string& yaml) {
  std::set<std::string> out;
  auto lines = Lines(yaml);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("differ only by parameters") == std::string::npos) continue;
    // `- names:` then `- Class::method` follow the comment.
    std::string name = lines[i + 2];
    out.insert(name.substr(name.find("- ") + 2));
  }
  return out;
}

TEST(ConfigCli, GeneratedConfigChecksCleanAndExplainsToItsAdmission) {
  CommandResult gen;
  std::string yaml = Generate({}, &gen);
  EXPECT_EQ(Generate(), yaml) << "generate is not stable";
  std::string path = WriteTempFile("generated.yaml", yaml);
  auto check = TestmapWithTorch({"config", "check", path, "--index", SuiteIndex(), "--root-token",
                                 kRoot, "--format", "json"});
  ASSERT_EQ(check.rc, 0) << check.out << check.err;
  json c = json::parse(check.out);
  EXPECT_EQ(c["errors"], 0);
  EXPECT_EQ(c["warnings"], 0) << c.dump(2);
  EXPECT_GT(c["entries"].get<int>(), 30);

  auto admit = TestmapWithTorch(
      {"admit", "--index", SuiteIndex(), "--ops", kOps, "--dtypes", kDtypes, "--format", "json"});
  ASSERT_EQ(admit.rc, 0) << admit.err;
  std::set<std::string> inexact = InexactNames(yaml);
  auto modes = Explain(path);
  size_t compared = 0, skipped = 0, run = 0;
  json admission = json::parse(admit.out);
  for (const auto& t : admission["tests"]) {
    std::string id = t["nodeid"], generic = t["generic_id"];
    std::string name = generic.substr(generic.find("::") + 2);
    if (name.find("::") == std::string::npos) {  // a module-level function: no Class::method
      EXPECT_EQ(modes[id], "skip") << id;        // its file's unlisted_test_mode
      continue;
    }
    ++compared;
    std::string expected = t["state"] == "admitted" ? "xfail" : "skip";  // never run on toy
    if (inexact.count(name)) expected = "xfail";
    EXPECT_EQ(modes[id], expected) << id << " " << t.dump();
    (expected == "skip" ? skipped : run)++;
  }
  EXPECT_GT(compared, 150u);
  EXPECT_GT(skipped, 30u);
  EXPECT_GT(run, 30u);
  EXPECT_LE(inexact.size(), 3u) << yaml;
  // Every entry carries its reason.
  auto lines = Lines(yaml);
  for (size_t i = 1; i < lines.size(); ++i)
    if (lines[i].find("- names:") != std::string::npos)
      EXPECT_NE(lines[i - 1].find("# "), std::string::npos) << lines[i];
}

TEST(ConfigCli, HandWrittenConfigExplainsAsTheFrameworkDecides) {
  std::string path = WriteTempFile("hand.yaml", R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_binary_ops.py
      tests:
        - names: [SomeOtherClass::test_add]
          mode: xfail_strict
        - names: [TestBinaryOps::test_add_.*]
          mode: skip
        - names: [TestBinaryOps::test_mul]
          edits:
            dtypes:
              exclude: [{name: int64}, {name: float16}]
        - names: [TestBinaryOps::test_sub]
          mode: xfail
    - path: ${TORCH_ROOT}/test/test_ops.py
      unlisted_test_mode: skip
      tests:
        - names: [TestCommonOps::test_out_of_place_is_deterministic]
  global:
    supported_dtypes: [{name: float32}, {name: float64}, {name: int64}, {name: float16}, {name: int32}]
)");
  const std::set<std::string> ceiling = {"float32", "float64", "int64", "float16", "int32"};
  auto modes = Explain(path);
  size_t checked = 0;
  std::map<std::string, size_t> seen;
  for (const auto& line : Lines(ReadFile(ExampleSuiteEvidence().scan))) {
    json rec = json::parse(line);
    std::string id = rec["nodeid"], file = rec["file"], method = rec["generic_method"];
    std::set<std::string> dtypes = rec["params"]["dtypes"];
    bool in_ceiling = true;
    for (const auto& d : dtypes) in_ceiling = in_ceiling && ceiling.count(d);
    std::string expected;
    if (file == "test_binary_ops.py") {
      if (method == "test_add")
        expected = "xfail_strict";  // the class part is ignored
      else if (method.rfind("test_add_", 0) == 0)
        expected = "skip";  // the regex
      else if (method == "test_mul")
        expected = dtypes.count("int64") || dtypes.count("float16") ? "skip" : "mandatory_success";
      else if (method == "test_sub")
        expected = "xfail";
      else
        expected = "xfail";  // unlisted, no unlisted_test_mode: the framework's default
      if (!in_ceiling) expected = "skip";
    } else if (file == "test_ops.py") {
      expected = method == "test_out_of_place_is_deterministic" && in_ceiling ? "mandatory_success"
                                                                              : "skip";
    }
    EXPECT_EQ(modes[id], expected) << id;
    ++seen[expected];
    ++checked;
  }
  EXPECT_EQ(checked, modes.size());
  for (const char* m : {"xfail_strict", "skip", "mandatory_success", "xfail", ""})
    EXPECT_GT(seen[m], 0u) << m;
}

TEST(ConfigCli, BaseKeepsItsTextWhereTheEvidenceAgrees) {
  std::string yaml = Generate();
  std::string gen_path = WriteTempFile("gen.yaml", yaml);
  // Unchanged: the same bytes back, nothing to change.
  CommandResult same;
  EXPECT_EQ(Generate({"--base", gen_path}, &same), yaml);
  EXPECT_NE(same.err.find("the evidence agrees"), std::string::npos) << same.err;

  // A reviewer's edits: a comment, a blocked test made mandatory, an
  // admitted entry deleted, an entry for a test without evidence.
  auto lines = Lines(yaml);
  std::string base, blocked_name, deleted_name;
  bool deleting = false;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& l = lines[i];
    if (deleting) {
      if (l.find("        # ") == 0 || l.find("    - path:") == 0) {
        deleting = false;
      } else {
        continue;
      }
    }
    if (deleted_name.empty() && l.find("# admitted (3 variants)") != std::string::npos) {
      deleted_name = lines[i + 2].substr(lines[i + 2].find("- ") + 2);
      deleting = true;
      continue;
    }
    if (l.find("path: ${TORCH_ROOT}/test/test_device_decorators.py") != std::string::npos)
      base += "    # reviewed by hand\n";
    // A test blocked by an operator alone (a dtype-blocked one stays skipped
    // by the global dtypes whatever its mode says).
    if (blocked_name.empty() && l == "          mode: skip" &&
        lines[i - 3].find("# blocked: needs") != std::string::npos &&
        lines[i - 3].find("dtype") == std::string::npos) {
      blocked_name = lines[i - 1].substr(lines[i - 1].find("- ") + 2);
      base += "          mode: mandatory_success\n";
      continue;
    }
    base += l + "\n";
  }
  ASSERT_FALSE(blocked_name.empty());
  ASSERT_FALSE(deleted_name.empty());
  // No evidence for test_disabled (skipped when traced): kept as written.
  std::string marker = "      tests:\n";
  size_t at = base.find(marker, base.find("test_device_decorators.py"));
  ASSERT_NE(at, std::string::npos);
  base.insert(
      at + marker.size(),
      "        - names: [TestDeviceSkips::test_disabled]\n          mode: mandatory_success\n");
  std::string base_path = WriteTempFile("base.yaml", base);
  CommandResult edited;
  std::string out = Generate({"--base", base_path}, &edited);
  EXPECT_NE(out.find("    # reviewed by hand\n"), std::string::npos) << out;
  EXPECT_NE(
      out.find("- names: [TestDeviceSkips::test_disabled]\n          mode: mandatory_success"),
      std::string::npos);
  EXPECT_NE(edited.err.find("changed " + blocked_name), std::string::npos) << edited.err;
  EXPECT_NE(edited.err.find("added " + deleted_name), std::string::npos) << edited.err;
  // Where there is evidence, the edited base now says what a fresh config says.
  auto fresh = Explain(gen_path);
  auto modes = Explain(WriteTempFile("edited.yaml", out));
  for (const auto& [id, mode] : fresh) {
    if (id.find("test_disabled") != std::string::npos) {
      EXPECT_EQ(modes[id], "mandatory_success");
      continue;
    }
    EXPECT_EQ(modes[id], mode) << id;
  }
}

TEST(ConfigCli, TheExampleConfigChecksCleanAndExplains) {
  std::string path = SourcePath("examples/backend-config/example_suite.yaml");
  auto check =
      TestmapWithTorch({"config", "check", path, "--index", SuiteIndex(), "--root-token", kRoot});
  EXPECT_EQ(check.rc, 0) << check.out << check.err;
  EXPECT_NE(check.out.find("; 0 errors, 0 warnings"), std::string::npos) << check.out;
  auto modes = Explain(path);
  std::map<std::string, size_t> counts;
  for (const auto& [id, mode] : modes) ++counts[mode];
  for (const char* m : {"mandatory_success", "xfail", "xfail_strict", "skip", ""})
    EXPECT_GT(counts[m], 0u) << m;
  // force_xfail of nn.functional.relu flips its mandatory tests to xfail.
  EXPECT_EQ(modes["test_ops.py::TestCommonOpsCPU::test_out_of_place_is_deterministic_nn_functional_"
                  "relu_cpu_float32"],
            "xfail");
}

TEST(ConfigCli, CheckFindsWhatMatchesNothing) {
  std::string path = WriteTempFile("stale.yaml", R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_binary_ops.py
      tests:
        - names:
            - TestBinaryOps::test_add
            - TestBinaryOps::test_ad
            - WrongClass::test_mul
            - TestBinaryOps::test_nothing_.*
        - names: [TestBinaryOps::test_add]
          mode: xfail
    - path: ${TORCH_ROOT}/test/test_gone.py
  global:
    supported_ops:
      - name: add
      - name: not_an_opinfo
)");
  auto r = TestmapWithTorch({"config", "check", path, "--index", SuiteIndex(), "--root-token",
                             kRoot, "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;  // warnings only
  json c = json::parse(r.out);
  std::vector<std::pair<int, std::string>> got;
  for (const auto& d : c["diagnostics"]) {
    EXPECT_EQ(d["severity"], "warning");
    got.emplace_back(d["line"], d["message"]);
  }
  auto has = [&](int line, const std::string& text) {
    for (const auto& [l, m] : got)
      if (l == line && m.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has(7, "matches no test in test_binary_ops.py (did you mean test_add")) << r.out;
  EXPECT_TRUE(has(8, "no class `WrongClass` has `test_mul`")) << r.out;
  EXPECT_TRUE(has(9, "pattern `TestBinaryOps::test_nothing_.*`")) << r.out;
  EXPECT_TRUE(has(10, "already listed at line 6")) << r.out;
  EXPECT_TRUE(has(12, "names no test file of the index")) << r.out;
  EXPECT_TRUE(has(16, "`not_an_opinfo` is not an OpInfo")) << r.out;
  EXPECT_EQ(got.size(), 6u) << r.out;
}

}  // namespace
}  // namespace testmap::testing
