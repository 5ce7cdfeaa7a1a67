// The testmap_select pytest plugin in real pytest runs: `-m op__X` selects
// exactly what `testmap query --op X --format nodeids` lists (role `test` by
// default, `--testmap-role R` as `query --role R`), marks carry every
// operator packet and dtype, --testmap-select narrows the run, and a
// config's modes show in pytest's own outcomes (skip, xfail, XPASS(strict)
// failing, a failing mandatory_success test failing).
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

// pytest with the plugin (and the mark dumper) in `cwd`.
CommandResult Pytest(std::vector<std::string> args, const std::string& cwd) {
  std::vector<std::string> argv = {
      "-m",
      "pytest",
      "-p",
      "testmap_select",
      "-p",
      "dump_marks",
      "--testmap-index=" + SuiteIndex(),
      "--testmap-lib=" + std::string(TESTMAP_BINARY_DIR) + "/lib/libtestmap_select.so",
      "-p",
      "no:cacheprovider",
      "-W",
      "ignore::DeprecationWarning"};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string path = SourcePath("mapper/select/python") + ":" + SourcePath("tests/mapper/select");
  return Python(argv, cwd, {{"PYTHONPATH", path}});
}

struct Collected {
  std::map<std::string, std::set<std::string>> marks;  // every item, kept or not
  Ids kept;
};

Collected Collect(const CommandResult& r) {
  Collected c;
  for (const auto& line : Lines(r.out)) {
    if (line.rfind("TESTMAP_MARKS ", 0) != 0) continue;
    json j = json::parse(line.substr(14));
    c.marks[j["nodeid"]] = j["marks"].get<std::set<std::string>>();
    if (j["kept"]) c.kept.insert(j["nodeid"].get<std::string>());
  }
  return c;
}

Ids Query(const std::string& op, const std::string& role = "test") {
  auto r = Testmap(
      {"query", "--index", SuiteIndex(), "--op", op, "--role", role, "--format", "nodeids"});
  auto lines = Lines(r.out);
  return Ids(lines.begin(), lines.end());
}

// The ids of `ids` in the test files `files` (those the run collected).
Ids InFiles(const Ids& ids, const std::vector<std::string>& files) {
  Ids out;
  for (const auto& id : ids)
    for (const auto& f : files)
      if (id.rfind(f + "::", 0) == 0) out.insert(id);
  return out;
}

TEST(SelectPlugin, OpMarksSelectWhatQueryLists) {
  // One collection: pytest's own -m (with --strict-markers: the marks are
  // registered) keeps the _scaled_mm tests; every item's marks are dumped.
  const std::string suite = ExampleSuiteEvidence().suite;
  const std::vector<std::string> files = {"test_binary_ops.py", "test_matmul.py",
                                          "test_unittest_style.py"};
  std::vector<std::string> args = {"--collect-only", "-q", "--strict-markers", "-m",
                                   "op___scaled_mm"};
  args.insert(args.end(), files.begin(), files.end());
  auto r = Pytest(args, suite);
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  Collected c = Collect(r);
  ASSERT_GT(c.marks.size(), 50u);
  auto in_files = [&](const Ids& ids) { return InFiles(ids, files); };
  EXPECT_EQ(c.kept, in_files(Query("_scaled_mm")));
  EXPECT_FALSE(c.kept.empty());
  // In role test (the default): the assertion-only operators (isnan) are
  // RolesMarkWhatQueryListsForThem's.
  for (std::string op : {"add", "mul", "abs", "mm", "_local_scalar_dense"}) {
    Ids marked;
    for (const auto& [id, m] : c.marks)
      if (m.count("op__" + op)) marked.insert(id);
    EXPECT_EQ(marked, in_files(Query(op))) << op;
    EXPECT_FALSE(marked.empty()) << op;
  }
  auto q = Testmap({"query", "--index", SuiteIndex(), "--op", "_scaled_mm", "--dtype", "bfloat16",
                    "--format", "nodeids"});
  for (const auto& id : Lines(q.out)) EXPECT_TRUE(c.marks[id].count("dtype__bfloat16")) << id;
}

TEST(SelectPlugin, RolesMarkWhatQueryListsForThem) {
  // Ops that assertEqual and make_tensor run for a test mark it only when
  // their roles are asked for, as `query --role` counts them (role test,
  // the default, is OpMarksSelectWhatQueryLists').
  const std::string suite = ExampleSuiteEvidence().suite;
  const std::vector<std::string> files = {"test_binary_ops.py", "test_roles.py"};
  std::vector<std::string> args = {"--collect-only", "-q", "--testmap-role=all"};
  args.insert(args.end(), files.begin(), files.end());
  auto r = Pytest(args, suite);
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  auto every = Collect(r).marks;
  size_t differ = 0;
  for (std::string op : {"abs", "isnan", "eq", "_local_scalar_dense", "neg", "view", "add"}) {
    Ids marked;
    for (const auto& [id, m] : every)
      if (m.count("op__" + op)) marked.insert(id);
    EXPECT_EQ(marked, InFiles(Query(op, "all"), files)) << op;
    differ += marked != InFiles(Query(op, "test"), files);
  }
  // The roles make a difference here, or this test could not fail.
  EXPECT_GE(differ, 3u);
  // An unknown role is a usage error with the closest name.
  auto bad = Pytest({"--collect-only", "-q", "--testmap-role=asert", "test_roles.py"}, suite);
  EXPECT_EQ(bad.rc, 4) << bad.out << bad.err;
  EXPECT_NE((bad.out + bad.err).find("did you mean: assert"), std::string::npos)
      << bad.out << bad.err;
}

// pytest's outcome of each test from JUnit XML: passed, failed, skipped,
// xfailed (pytest writes xfail as skipped with type pytest.xfail).
std::map<std::string, std::string> Outcomes(const std::string& junit) {
  std::map<std::string, std::string> out;
  std::string xml = ReadFile(junit);
  for (size_t at = xml.find("<testcase "); at != std::string::npos;) {
    size_t next = xml.find("<testcase ", at + 1);
    std::string tc = xml.substr(at, next == std::string::npos ? std::string::npos : next - at);
    size_t n = tc.find(" name=\"") + 7;
    std::string outcome = "passed";
    if (tc.find("<failure") != std::string::npos) outcome = "failed";
    if (tc.find("type=\"pytest.xfail\"") != std::string::npos)
      outcome = "xfailed";
    else if (tc.find("<skipped") != std::string::npos)
      outcome = "skipped";
    out[tc.substr(n, tc.find('"', n) - n)] = outcome;
    at = next;
  }
  return out;
}

TEST(SelectPlugin, ConfigModesShowInPytestOutcomes) {
  std::string config = WriteTempFile("modes.yaml", R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_modes.py
      unlisted_test_mode: skip
      tests:
        - names: [TestModes::test_passes]
          mode: xfail_strict
        - names: [TestModes::test_fails]
          mode: xfail
        - names: [TestModes::test_fails_mandatory]
    - path: ${TORCH_ROOT}/test/test_binary_ops.py
      unlisted_test_mode: skip
      tests:
        - names: [TestBinaryOps::test_add]
          mode: xfail
          edits:
            dtypes:
              exclude: [{name: int64}]
)");
  std::string junit = ScratchDir("modes") + "/junit.xml";
  std::vector<std::string> common = {"--testmap-config=" + config,
                                     "--testmap-root-token=${TORCH_ROOT}/test", "-q",
                                     "--junitxml=" + junit};
  auto cases = Pytest(common, SourcePath("tests/mapper/select/cases"));
  EXPECT_EQ(cases.rc, 1) << cases.out;  // the strict XPASS and the mandatory failure fail
  auto o = Outcomes(junit);
  EXPECT_EQ(o["test_passes"], "failed") << cases.out;  // [XPASS(strict)]
  EXPECT_NE(cases.out.find("[XPASS(strict)]"), std::string::npos) << cases.out;
  EXPECT_EQ(o["test_fails"], "xfailed");
  EXPECT_EQ(o["test_fails_mandatory"], "failed");
  EXPECT_EQ(o["test_skipped_by_config"], "skipped");

  // --testmap-select narrows the suite run to these four.
  std::string ids;
  for (const char* t : {"test_add_cpu_int64", "test_add_cpu_float32", "test_add_cpu_float64",
                        "test_mul_cpu_float32"})
    ids += std::string("test_binary_ops.py::TestBinaryOpsCPU::") + t + "\n";
  std::vector<std::string> suite_args = common;
  suite_args.insert(suite_args.end(),
                    {"--testmap-select=" + WriteTempFile("ids.txt", ids), "test_binary_ops.py"});
  auto suite = Pytest(suite_args, ExampleSuiteEvidence().suite);
  EXPECT_EQ(suite.rc, 0) << suite.out;
  o = Outcomes(junit);
  EXPECT_EQ(o["test_add_cpu_int64"], "skipped");    // the dtype exclude
  EXPECT_EQ(o["test_add_cpu_float32"], "passed");   // xfail, not strict: an XPASS
  EXPECT_EQ(o["test_mul_cpu_float32"], "skipped");  // unlisted
  EXPECT_EQ(o.size(), 4u);
  EXPECT_NE(suite.out.find("2 xpassed"), std::string::npos) << suite.out;
}

}  // namespace
}  // namespace testmap::testing
