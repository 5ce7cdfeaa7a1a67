// `testmap plan` end to end: the real binary on real files, checking output
// and exit codes, bad input included.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace {

using testmap::testing::TempDir;
using testmap::testing::WriteTempFile;

struct Result {
  int status = -1;
  std::string out;  // stdout and stderr
};

// `testmap ARGS` with ARGS split at spaces (no path here has one).
Result Testmap(const std::string& args) {
  std::vector<std::string> argv;
  std::istringstream words(args);
  for (std::string w; words >> w;) argv.push_back(w);
  auto r = testmap::testing::Testmap(argv);
  return {r.rc, r.out + r.err};
}

std::string Fixture(const char* name) {
  return std::string(TESTMAP_SOURCE_DIR) + "/tests/timings/data/" + name;
}

TEST(PlanCommand, NodeIdsOfAllSplitsAreExactlyTheTests) {
  std::set<std::string> all;
  for (int k = 1; k <= 3; ++k) {
    Result r = Testmap("plan " + Fixture("pytest_xunit2.xml") + " " + Fixture("pytest_xunit1.xml") +
                       " --splits 3 --format nodeids --split " + std::to_string(k));
    ASSERT_EQ(r.status, 0) << r.out;
    std::istringstream lines(r.out);
    for (std::string l; std::getline(lines, l);) EXPECT_TRUE(all.insert(l).second) << l;
  }
  std::ifstream expected(Fixture("pytest_nodeids.txt"));
  std::set<std::string> ids;
  for (std::string l; std::getline(expected, l);) ids.insert(l);
  EXPECT_EQ(all, ids);
}

TEST(PlanCommand, TableJsonSvgAndMatrix) {
  Result table = Testmap("plan " + Fixture("pytest_xunit1.xml") + " --splits 2");
  ASSERT_EQ(table.status, 0) << table.out;
  EXPECT_NE(table.out.find("lower bound"), std::string::npos) << table.out;
  // The skipped test has no timing: it is estimated, and the plan says so.
  EXPECT_NE(table.out.find("estimated: 1 of 8 tests"), std::string::npos) << table.out;
  Result json = Testmap("plan " + Fixture("pytest_xunit1.xml") + " --splits 2 --format json");
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_NE(json.out.find("\"ratio_to_lower_bound\""), std::string::npos);
  Result svg = Testmap("plan " + Fixture("pytest_xunit1.xml") + " --splits 2 --format svg");
  EXPECT_EQ(svg.out.rfind("<svg", 0), 0u) << svg.out;
  Result gha = Testmap("plan " + Fixture("pytest_xunit1.xml") + " --splits 2 --format gha-matrix");
  EXPECT_EQ(gha.out.rfind("{\"include\":[", 0), 0u) << gha.out;
  Result report = Testmap("plan " + Fixture("pytest_xunit1.xml") + " --splits 2 --report " +
                          Fixture("pytest_xunit2.xml"));
  ASSERT_EQ(report.status, 0) << report.out;
  EXPECT_NE(report.out.find("measured_s"), std::string::npos) << report.out;
}

// Fails with the documented exit code (docs/exit-codes.md): 1 for bad
// input, 2 for usage errors.
void ExpectFailure(const std::string& args, const std::string& fragment, int code = 1) {
  Result r = Testmap(args);
  EXPECT_EQ(r.status, code) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(fragment), std::string::npos) << args << "\n" << r.out;
}

TEST(PlanCommand, BadInputIsAClearErrorNeverACrash) {
  std::string xml =
      WriteTempFile("cut.xml", "<testsuites><testsuite>\n<testcase classname=\"a\" name=\"b\"");
  ExpectFailure("plan " + xml + " --splits 2", xml + ":2: malformed XML");
  std::string nan = WriteTempFile("nan.json", "{\n\"a.py::t\": NaN\n}");
  ExpectFailure("plan " + nan + " --splits 2", nan + ":2:");
  std::string neg = WriteTempFile("neg.json", "{\n\"a.py::t\": -1\n}");
  ExpectFailure("plan " + neg + " --splits 2", "negative");
  std::string empty = WriteTempFile("empty.json", "");
  ExpectFailure("plan " + empty + " --splits 2", "empty timing file");
  std::string dup = WriteTempFile("dup.json", "{\n\"a.py::t\": 1,\n\"a.py::t\": 1\n}");
  ExpectFailure("plan " + dup + " --splits 2", dup + ":3: duplicate key");
  std::string ok = WriteTempFile("ok.json", "{\"a.py::t\": 1, \"a.py::u\": 2}");
  std::string list = WriteTempFile("tests.txt", "a.py::t\na.py::u\na.py::t\n");
  ExpectFailure("plan " + ok + " --splits 2 --tests " + list,
                list + ":3: test a.py::t listed twice");
  std::string nul = WriteTempFile("nul.txt", std::string("a.py::t\na.py::u\0v\n", 18));
  ExpectFailure("plan " + ok + " --splits 2 --collected " + nul, nul + ":2: test id `a.py::u");
  ExpectFailure("plan " + ok + " --splits 2 --tests " + nul, nul + ":2: test id `a.py::u");
  std::string missing = WriteTempFile("placeholder", "") + ".missing-index";
  ExpectFailure("plan --index " + missing + " --splits 2", "no testmap index at " + missing);
  ExpectFailure("plan " + ok + " --splits 2 --split 5", "only 2 splits", 2);
  ExpectFailure("plan " + ok, "--splits N or --max-minutes M", 2);
}

// Limits on what a flag or a duration can ask for (docs/plan.md): a short
// usage error or a bad-input error, never an exhausted machine or 200k
// lines of notes.
TEST(PlanCommand, LimitsAreErrorsNotExhaustion) {
  std::string ok = WriteTempFile("limits.json", "{\"a.py::t\": 1, \"a.py::u\": 2}");
  for (const char* splits : {"0", "100000", "1000000000"}) {
    Result r = Testmap("plan " + ok + " --splits " + splits);
    EXPECT_EQ(r.status, 2) << splits << "\n" << r.out;
    EXPECT_NE(r.out.find("1 to 10000"), std::string::npos) << r.out;
    EXPECT_LT(r.out.size(), 300u) << r.out;  // no 309-digit range
  }
  Result many = Testmap("plan " + ok + " --splits 10000 --format json");
  ASSERT_EQ(many.status, 0) << many.out.substr(0, 500);
  auto notes = nlohmann::json::parse(many.out)["notes"];
  ASSERT_EQ(notes.size(), 1u) << notes.dump();
  EXPECT_EQ(notes[0], "splits 3-10000 are empty: fewer items (2) than splits (10000)");
  ExpectFailure("plan " + ok + " --splits 2 --cut-seconds 0.000001", "over the limit of 1000000",
                2);
  std::string huge = WriteTempFile("huge.json", "{\n\"a.py::t\": 1e10\n}");
  ExpectFailure("plan " + huge + " --splits 2", huge + ":2: duration of a.py::t is 1e+10 s");
  std::string deep =
      WriteTempFile("deep.json", std::string(100000, '[') + std::string(100000, ']'));
  ExpectFailure("plan " + deep + " --splits 2", deep + ":1: JSON nested deeper than 64 levels");
}

// A file PyTorch times only as a whole is cut into pieces (test_a#1/3) for
// runners that shard files; pytest cannot run those, so nodeids keeps it
// whole and says so on stderr, or cuts it into its real tests when they
// are known.
TEST(PlanCommand, NodeIdsNeverPrintPieces) {
  std::string times = WriteTempFile(
      "pieces.json", "{\"default\": {\"default\": {\"test_a\": 1500, \"test_b\": 300}}}");
  Result json = Testmap("plan " + times + " --splits 3 --format json");
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_NE(json.out.find("\"test_a#2/3\""), std::string::npos) << json.out;
  std::string all;
  for (int k = 1; k <= 3; ++k) {
    auto r = testmap::testing::Testmap(
        {"plan", times, "--splits", "3", "--format", "nodeids", "--split", std::to_string(k)});
    if (k == 1) {
      EXPECT_EQ(r.rc, 0) << r.err;
      EXPECT_NE(r.err.find("test_a.py (1500 s) is timed only as a whole"), std::string::npos)
          << r.err;
    }
    all += r.out;
  }
  EXPECT_EQ(all.find('#'), std::string::npos) << all;
  EXPECT_NE(all.find("test_a.py\n"), std::string::npos) << all;
  EXPECT_NE(all.find("test_b.py\n"), std::string::npos) << all;
  ExpectFailure("plan " + times + " --splits 3 --format nodeids --pieces yes",
                "pytest cannot run a piece", 2);
  // With the ids known (here as pytest --collect-only -q prints them, with
  // PyTorch's test/ prefix), the long file becomes lists of its tests.
  std::string ids = WriteTempFile("ids.txt",
                                  "test/test_a.py::TestA::test_1\ntest/test_a.py::TestA::test_2\n"
                                  "test/test_a.py::TestA::test_3\ntest/test_b.py::test_4\n\n"
                                  "4 tests collected in 0.01s\n");
  std::multiset<std::string> listed;
  for (int k = 1; k <= 3; ++k) {
    auto r = testmap::testing::Testmap({"plan", times, "--splits", "3", "--format", "nodeids",
                                        "--split", std::to_string(k), "--collected", ids});
    EXPECT_EQ(r.rc, 0) << r.err;
    EXPECT_EQ(r.err, "");
    std::istringstream lines(r.out);
    for (std::string l; std::getline(lines, l);) listed.insert(l);
  }
  EXPECT_EQ(listed, (std::multiset<std::string>{
                        "test/test_a.py::TestA::test_1", "test/test_a.py::TestA::test_2",
                        "test/test_a.py::TestA::test_3", "test/test_b.py"}));
}

// A suite whose costs are known by construction: every module sleeps
// 0.3 s when imported (collection), every test 0.02 s.
std::string WriteSuite(const TempDir& dir, int files, int tests_per_file) {
  for (int f = 0; f < files; ++f) {
    std::string src = "import time\ntime.sleep(0.3)\n\n";
    for (int t = 0; t < tests_per_file; ++t)
      src += "def test_" + std::to_string(t) + "():\n    time.sleep(0.02)\n\n";
    dir.Write("test_m" + std::to_string(f) + ".py", src);
  }
  dir.Write("pytest.ini", "[pytest]\n");
  return dir.path().string();
}

testmap::testing::CommandResult Pytest(const std::string& cwd, std::vector<std::string> args) {
  // Without hypothesis' plugin, whose import is most of pytest's start-up.
  args.insert(args.begin(),
              {"-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:hypothesispytest"});
  return testmap::testing::Python(args, cwd);
}

// `pytest $(testmap plan ... --format nodeids --split K)`, for real, for
// every K: together the splits run every test exactly once. Then the
// plan's fixed costs, learned from the JUnit suites of the timing runs
// (one file in one process, three in another), predict each split's
// session time, and --report compares them with the splits' own reports.
TEST(PlanCommand, PytestRunsEverySplitAndTheFixedCostsPredictTheirTime) {
  TempDir dir;
  const std::string root = WriteSuite(dir, 4, 4);
  auto first = Pytest(root, {"test_m0.py", "--junitxml", root + "/run1.xml"});
  ASSERT_EQ(first.rc, 0) << first.out << first.err;
  auto second =
      Pytest(root, {"test_m1.py", "test_m2.py", "test_m3.py", "--junitxml", root + "/run2.xml"});
  ASSERT_EQ(second.rc, 0) << second.out << second.err;
  auto json = testmap::testing::Testmap(
      {"plan", root + "/run1.xml", root + "/run2.xml", "--splits", "2", "--format", "json"});
  ASSERT_EQ(json.rc, 0) << json.err;
  auto options = nlohmann::json::parse(json.out)["options"];
  // 0.3 s a file, by construction; the rest is pytest's own per-session cost.
  EXPECT_NEAR(options["file_overhead"].get<double>(), 0.3, 0.1) << options.dump();
  EXPECT_LT(options["process_overhead"].get<double>(), 1.0) << options.dump();

  std::multiset<std::string> ran;
  std::vector<std::string> reports;
  for (int k = 1; k <= 2; ++k) {
    auto ids =
        testmap::testing::Testmap({"plan", root + "/run1.xml", root + "/run2.xml", "--splits", "2",
                                   "--format", "nodeids", "--split", std::to_string(k)});
    ASSERT_EQ(ids.rc, 0) << ids.err;
    std::vector<std::string> args;
    std::istringstream lines(ids.out);
    for (std::string l; std::getline(lines, l);) args.push_back(l);
    ASSERT_FALSE(args.empty());
    reports.push_back(root + "/split" + std::to_string(k) + ".xml");
    args.insert(args.end(), {"--junitxml", reports.back(), "-rA"});
    auto run = Pytest(root, args);
    ASSERT_EQ(run.rc, 0) << run.out << run.err;
    std::istringstream out(run.out);
    for (std::string l; std::getline(out, l);) {
      if (l.rfind("PASSED ", 0) == 0) ran.insert(l.substr(7));
    }
  }
  std::multiset<std::string> every;
  for (int f = 0; f < 4; ++f) {
    for (int t = 0; t < 4; ++t)
      every.insert("test_m" + std::to_string(f) + ".py::test_" + std::to_string(t));
  }
  EXPECT_EQ(ran, every);
  auto report =
      testmap::testing::Testmap({"plan", root + "/run1.xml", root + "/run2.xml", "--splits", "2",
                                 "--format", "json", "--report", reports[0], reports[1]});
  ASSERT_EQ(report.rc, 0) << report.err;
  for (const auto& s : nlohmann::json::parse(report.out)["splits"]) {
    ASSERT_TRUE(s["measured_wall_seconds"].is_number()) << s.dump();
    const double predicted = s["predicted_seconds"], wall = s["measured_wall_seconds"];
    EXPECT_NEAR(wall / predicted, 1.0, 0.2) << s.dump();
  }
}

}  // namespace
