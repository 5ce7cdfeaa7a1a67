// `testmap plan` end to end: the real binary on real files, checking output
// and exit codes, bad input included.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace {

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
  std::string missing = WriteTempFile("placeholder", "") + ".missing-index";
  ExpectFailure("plan --index " + missing + " --splits 2", "no testmap index at " + missing);
  ExpectFailure("plan " + ok + " --splits 2 --split 5", "only 2 splits", 2);
  ExpectFailure("plan " + ok, "--splits N or --max-minutes M", 2);
}

}  // namespace
