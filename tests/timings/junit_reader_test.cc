#include "timings/junit_reader.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>

#include "core/errors.h"
#include "tests/support/temp_dir.h"

namespace testmap::timings {
namespace {

std::string DataFile(const std::string& name) {
  return testing::SourcePath("tests/timings/data/" + name);
}

std::set<std::string> PytestNodeIds() {
  std::ifstream in(DataFile("pytest_nodeids.txt"));
  std::set<std::string> ids;
  for (std::string line; std::getline(in, line);) ids.insert(line);
  return ids;
}

std::map<std::string, TimingRecord> ById(const std::vector<TimingRecord>& records) {
  std::map<std::string, TimingRecord> out;
  for (const auto& r : records) out[r.id] = r;
  return out;
}

// Both families must rebuild exactly the ids `pytest --collect-only -q`
// printed for the same suite.
class JUnitFamilies : public ::testing::TestWithParam<const char*> {};

TEST_P(JUnitFamilies, RebuildsPytestNodeIds) {
  auto records = ReadJUnitXml(DataFile(GetParam()));
  std::set<std::string> ids;
  for (const auto& r : records) ids.insert(r.id);
  EXPECT_EQ(ids, PytestNodeIds());
}

TEST_P(JUnitFamilies, OutcomesAndDurations) {
  auto by_id = ById(ReadJUnitXml(DataFile(GetParam())));
  const std::string f = "pkg/test_sample.py::";
  EXPECT_EQ(by_id[f + "TestMath::test_skipped"].outcome, Outcome::kSkipped);
  EXPECT_EQ(by_id[f + "TestMath::test_fails"].outcome, Outcome::kFailed);
  EXPECT_EQ(by_id[f + "test_error"].outcome, Outcome::kError);
  // xfail ran (and slept): pytest writes it as <skipped type="pytest.xfail">.
  EXPECT_EQ(by_id[f + "TestMath::test_xfail"].outcome, Outcome::kPassed);
  EXPECT_EQ(by_id[f + "test_function"].outcome, Outcome::kPassed);
  // The suite sleeps 0.2 s in test_slow, 0.04 s in test_param[2].
  EXPECT_NEAR(by_id[f + "TestMath::test_slow"].seconds, 0.2, 0.05);
  EXPECT_NEAR(by_id[f + "test_param[2]"].seconds, 0.04, 0.03);
  EXPECT_EQ(by_id[f + "TestMath::test_slow"].feature, "linalg");
  EXPECT_EQ(by_id[f + "TestMath::test_slow"].file, "pkg/test_sample");
  EXPECT_EQ(by_id[f + "TestMath::test_slow"].cls, "TestMath");
  EXPECT_GT(by_id[f + "TestMath::test_slow"].line, 0);
}

INSTANTIATE_TEST_SUITE_P(Pytest, JUnitFamilies,
                         ::testing::Values("pytest_xunit1.xml", "pytest_xunit2.xml"));

TEST(JUnitReader, RerunAttemptsAreSummedIntoOneRecord) {
  auto by_id = ById(ReadJUnitXml(DataFile("rerun_attempts.xml")));
  ASSERT_EQ(by_id.size(), 2u);
  const auto& always = by_id["test_rerun.py::test_always_fails"];
  EXPECT_TRUE(always.rerun);
  EXPECT_DOUBLE_EQ(always.seconds, 1.5);
  EXPECT_EQ(always.outcome, Outcome::kFailed);
  const auto& flaky = by_id["test_rerun.py::test_flaky"];
  EXPECT_TRUE(flaky.rerun);
  EXPECT_EQ(flaky.outcome, Outcome::kPassed);
}

TEST(JUnitReader, RebuildNodeIdWithAndWithoutFile) {
  EXPECT_EQ(RebuildNodeId("test.test_nn.TestNN", "test_x", "test/test_nn.py"),
            "test/test_nn.py::TestNN::test_x");
  EXPECT_EQ(RebuildNodeId("test.test_nn.TestNN", "test_x", ""), "test/test_nn.py::TestNN::test_x");
  EXPECT_EQ(RebuildNodeId("test_mod", "test_f[a.b]", ""), "test_mod.py::test_f[a.b]");
  EXPECT_EQ(RebuildNodeId("pkg.test_mod.TestOuter.TestInner", "test_f", ""),
            "pkg/test_mod.py::TestOuter::TestInner::test_f");
  // Inherited test: `file` is where it is defined, classname where collected.
  EXPECT_EQ(RebuildNodeId("test_ops.TestCommonCPU", "test_out", "common/base.py"),
            "test_ops.py::TestCommonCPU::test_out");
}

TEST(JUnitReader, MalformedXmlNamesFileAndLine) {
  std::string path = testing::WriteTempFile("truncated.xml",
                                            "<?xml version=\"1.0\"?>\n<testsuites>\n<testsuite>\n"
                                            "<testcase classname=\"a\" name=\"b\" time=\"1\">\n");
  try {
    ReadJUnitXml(path);
    FAIL() << "no error";
  } catch (const core::InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_GE(e.line(), 4);
    EXPECT_NE(std::string(e.what()).find("malformed XML"), std::string::npos) << e.what();
  }
}

TEST(JUnitReader, BadTimesAreErrorsWithLine) {
  for (const char* bad : {"nan", "-1.5", "abc", "inf", "1e20", "1e308", "1e10"}) {
    std::string path = testing::WriteTempFile(
        "bad.xml", std::string("<testsuite>\n<testcase classname=\"m\" name=\"t\" time=\"") + bad +
                       "\"/>\n</testsuite>\n");
    try {
      ReadJUnitXml(path);
      FAIL() << "no error for time=" << bad;
    } catch (const core::InputError& e) {
      EXPECT_EQ(e.line(), 2) << e.what();
    }
  }
}

// Each <testsuite> is one pytest session: its time is the session's wall
// time, the rest of it what the process paid around its tests.
TEST(JUnitReader, SuitesAreProcessesWithTheirWallTime) {
  std::vector<ProcessWall> walls;
  auto records = ParseJUnitXml(
      "<testsuites>\n<testsuite name=\"pytest\" time=\"5.5\">\n"
      "<testcase classname=\"a.test_x.T\" name=\"t1\" time=\"1\"/>\n"
      "<testcase classname=\"a.test_y\" name=\"t2\" time=\"2\"/>\n</testsuite>\n"
      "<testsuite name=\"pytest\" time=\"2\"><testcase classname=\"a.test_x.T\" name=\"t3\" "
      "time=\"0.5\"/></testsuite>\n</testsuites>",
      "j.xml", &walls);
  ASSERT_EQ(records.size(), 3u);
  ASSERT_EQ(walls.size(), 2u);
  EXPECT_EQ(walls[0].line, 2);
  EXPECT_DOUBLE_EQ(walls[0].wall_seconds, 5.5);
  EXPECT_DOUBLE_EQ(walls[0].test_seconds, 3);
  EXPECT_DOUBLE_EQ(walls[0].Overhead(), 2.5);
  EXPECT_EQ(walls[0].files, 2);
  EXPECT_EQ(walls[0].first_record, 0u);
  EXPECT_EQ(walls[0].end_record, 2u);
  EXPECT_EQ(walls[1].files, 1);
  EXPECT_EQ(walls[1].first_record, 2u);
  EXPECT_EQ(walls[1].end_record, 3u);
  // The real pytest fixture: one session, its time above its tests'.
  walls.clear();
  ReadJUnitXml(DataFile("pytest_xunit2.xml"), &walls);
  ASSERT_EQ(walls.size(), 1u);
  EXPECT_EQ(walls[0].tests, 8);
  EXPECT_GT(walls[0].wall_seconds, walls[0].test_seconds);
  // When the session began and where: pytest's timestamp and hostname.
  // 2026-11-29T23:25:32.211898+00:00, as Python reads it.
  EXPECT_NEAR(walls[0].start, 1795994732.211898, 1e-6);
  EXPECT_EQ(walls[0].host, "vm");
}

TEST(JUnitReader, EmptyFileAndWrongRoot) {
  EXPECT_THROW(ReadJUnitXml(testing::WriteTempFile("empty.xml", "  \n")), core::InputError);
  EXPECT_THROW(ReadJUnitXml(testing::WriteTempFile("html.xml", "<html><body/></html>")),
               core::InputError);
  EXPECT_THROW(ReadJUnitXml(testing::WriteTempFile(
                   "notime.xml", "<testsuite><testcase classname=\"m\" name=\"t\"/></testsuite>")),
               core::InputError);
  EXPECT_THROW(ReadJUnitXml("/nonexistent/junit.xml"), core::InputError);
}

}  // namespace
}  // namespace testmap::timings
