// `testmap report` as a command: bad plan files name the file and leave the
// page as it was, usage errors, and a page that embeds hostile node ids
// without letting them out of its data island. (The page itself is checked
// in Chromium by report_page_test.)
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

size_t Occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class ReportCommand : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const SuiteEvidence& ev = ExampleSuiteEvidence();
    index_ = new std::string(ScratchDir("report-index") + "/index");
    auto r = Testmap({"ingest", "--index", *index_, ev.scan, ev.trace});
    ASSERT_EQ(r.rc, 0) << r.err;
  }
  static std::string Plan(int splits) {
    auto r = Testmap(
        {"plan", "--index", *index_, "--splits", std::to_string(splits), "--format", "json"});
    EXPECT_EQ(r.rc, 0) << r.err;
    return WriteTempFile("plan-" + std::to_string(splits) + ".json", r.out);
  }
  static std::string* index_;
};
std::string* ReportCommand::index_;

TEST_F(ReportCommand, WritesThePageAndSaysWhatIsOnIt) {
  std::string out = ScratchDir("page");
  auto r = Testmap({"report", "--index", *index_, "--out", out, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  json s = json::parse(r.out);
  EXPECT_EQ(s["page"], out + "/index.html");
  EXPECT_GT(s["operators"].get<int>(), 50);
  EXPECT_GT(s["cells"].get<int>(), 250);
  EXPECT_EQ(s["runs"], 1);
  EXPECT_EQ(s["splits"], 0);
  std::string page = ReadFile(out + "/index.html");
  EXPECT_EQ(s["bytes"], page.size());
  // Self-contained: no external reference, and a policy forbidding fetches.
  EXPECT_NE(page.find("Content-Security-Policy"), std::string::npos);
  EXPECT_NE(page.find("default-src 'none'"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find(" src="), std::string::npos);
  EXPECT_EQ(Occurrences(page, "http://") + Occurrences(page, "https://"),
            Occurrences(page, "http://www.w3.org/2000/svg"));
  // The same index, the same page.
  auto again = Testmap({"report", "--index", *index_, "--out", out});
  ASSERT_EQ(again.rc, 0) << again.err;
  EXPECT_EQ(ReadFile(out + "/index.html"), page);
  EXPECT_NE(again.out.find("operators x"), std::string::npos) << again.out;
}

TEST_F(ReportCommand, BadPlanFilesNameTheFileAndLeaveThePageAsItWas) {
  std::string out = ScratchDir("kept");
  ASSERT_EQ(Testmap({"report", "--index", *index_, "--out", out}).rc, 0);
  std::string before = ReadFile(out + "/index.html");
  struct Case {
    std::string name, content, message;
  } cases[] = {
      {"truncated.json", "{\"splits\": 4,\n \"plan\": [", "truncated.json:2"},
      {"other.json", "{\"tests\": {}}\n", "not `testmap plan --format json` output"},
      {"splits.json", "{\"plan\": [{\"split\": \"one\"}], \"splits\": 1}\n", "needs `options`"},
  };
  for (const Case& c : cases) {
    std::string file = WriteTempFile(c.name, c.content);
    auto r = Testmap({"report", "--index", *index_, "--out", out, "--plan", file});
    EXPECT_EQ(r.rc, 1) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(ReadFile(out + "/index.html"), before);
  }
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(out)) files += e.is_regular_file();
  EXPECT_EQ(files, 1u) << "a temporary file was left behind";
}

TEST_F(ReportCommand, APlanReportMustBeOfThePlanAndComeWithIt) {
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  auto r = Testmap(
      {"plan", "--index", *index_, "--splits", "4", "--report", ev.trace, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::string report = WriteTempFile("measured-4.json", r.out);
  std::string out = ScratchDir("measured");
  r = Testmap(
      {"report", "--index", *index_, "--out", out, "--plan", Plan(2), "--plan-report", report});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("a report of another plan?"), std::string::npos) << r.err;
  r = Testmap({"report", "--index", *index_, "--out", out, "--plan", report});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("not `testmap plan --format json` output"), std::string::npos) << r.err;
  r = Testmap({"report", "--index", *index_, "--out", out, "--plan-report", report});
  EXPECT_EQ(r.rc, 2) << r.err;
  EXPECT_NE(r.err.find("--plan-report needs the plan"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(out + "/index.html"));
  r = Testmap({"report", "--index", *index_, "--out", out, "--plan", Plan(4), "--plan-report",
               report, "--format", "json"});
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["splits"], 4);
  // The page compares the report's own predicted session time with what it
  // measured: a report without it is not one.
  json cut = json::parse(ReadFile(report));
  cut["splits"][0].erase("predicted_seconds");
  std::string cut_report = WriteTempFile("measured-cut.json", cut.dump(1));
  r = Testmap(
      {"report", "--index", *index_, "--out", out, "--plan", Plan(4), "--plan-report", cut_report});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find(cut_report), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("needs `predicted_seconds`"), std::string::npos) << r.err;
}

TEST_F(ReportCommand, MissingIndexAndUnwritableOutAreErrors) {
  auto r = Testmap({"report", "--index", ScratchDir("empty") + "/none", "--out", ScratchDir("x")});
  EXPECT_NE(r.rc, 0);
  EXPECT_NE(r.err.find("testmap report: error:"), std::string::npos) << r.err;
  std::string file = WriteTempFile("a-file", "x");
  r = Testmap({"report", "--index", *index_, "--out", file});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find(file), std::string::npos) << r.err;
  r = Testmap({"report", "--index", *index_});
  EXPECT_EQ(r.rc, 2) << r.err;
}

// The page's data island, parsed.
json PageDataOf(const std::string& page) {
  std::string html = ReadFile(page);
  const std::string open = "<script type=\"application/json\" id=\"testmap-data\">";
  size_t begin = html.find(open) + open.size();
  return json::parse(html.substr(begin, html.find("</script>", begin) - begin));
}

TEST_F(ReportCommand, AdmissionOfTheNamedOrTheIndexsOnlyBackend) {
  std::string kernel =
      R"({"op":"aten::add.Tensor","dispatch_key":"PrivateUse1","kind":"kernel","mechanism":"m.impl","file":"ops.cpp","line":2,"evidence":"static"})"
      "\n";
  std::string records = WriteTempFile("one.jsonl", kernel);
  std::string python = TESTMAP_PYTHON;
  // No backend in the index, none named: the section says how to name one.
  std::string out = ScratchDir("admission-none");
  auto r = Testmap({"report", "--index", *index_, "--out", out, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(json::parse(r.out)["admission"].is_null());
  json adm = PageDataOf(out + "/index.html")["admission"];
  EXPECT_NE(adm["unavailable"].get<std::string>().find("--backend NAME"), std::string::npos);
  // Named with admit's options: the same counts as `testmap admit`.
  r = Testmap({"report", "--index", *index_, "--out", out, "--supported", records, "--backend",
               "one", "--torch-python", python, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["admission"], "one");
  auto a = Testmap({"admit", "--index", *index_, "--supported", records, "--backend", "one",
                    "--torch-python", python, "--format", "json"});
  ASSERT_EQ(a.rc, 0) << a.err;
  adm = PageDataOf(out + "/index.html")["admission"];
  EXPECT_TRUE(adm["unavailable"].is_null());
  EXPECT_EQ(adm["counts"], json::parse(a.out)["counts"]);
  // Bad names and files as admit reports them: 3 with suggestions, 1 with the file.
  std::string two = ScratchDir("admission-two") + "/index";
  const SuiteEvidence& ev = ExampleSuiteEvidence();
  ASSERT_EQ(Testmap({"ingest", "--index", two, "--backend", "toy", ev.scan, ev.trace, records}).rc,
            0);
  r = Testmap({"report", "--index", two, "--out", out, "--backend", "tyo"});
  EXPECT_EQ(r.rc, 3) << r.err;
  EXPECT_NE(r.err.find("toy"), std::string::npos) << r.err;
  r = Testmap({"report", "--index", two, "--out", out, "--supported",
               WriteTempFile("bad.jsonl", "{\"op\": 3}\n")});
  EXPECT_EQ(r.rc, 1) << r.err;
  EXPECT_NE(r.err.find("bad.jsonl"), std::string::npos) << r.err;
  // The index's one backend needs no name; two do.
  r = Testmap({"report", "--index", two, "--out", out, "--torch-python", python});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.out.find("admission of backend toy"), std::string::npos) << r.out;
  // A torch that cannot be read costs the section, not the page, when no
  // backend was named; when one was, it is an error.
  r = Testmap({"report", "--index", two, "--out", out, "--torch-python", "/nonexistent/python"});
  ASSERT_EQ(r.rc, 0) << r.err;
  adm = PageDataOf(out + "/index.html")["admission"];
  EXPECT_NE(adm["unavailable"].get<std::string>().find("/nonexistent/python"), std::string::npos)
      << adm;
  r = Testmap({"report", "--index", two, "--out", out, "--backend", "toy", "--torch-python",
               "/nonexistent/python"});
  EXPECT_EQ(r.rc, 1) << r.err;
  ASSERT_EQ(Testmap({"ingest", "--index", two, "--backend", "other", records}).rc, 0);
  r = Testmap({"report", "--index", two, "--out", out, "--format", "json"});
  ASSERT_EQ(r.rc, 0) << r.err;
  adm = PageDataOf(out + "/index.html")["admission"];
  EXPECT_NE(adm["unavailable"].get<std::string>().find("2 backends"), std::string::npos) << adm;
  EXPECT_EQ(adm["backends"], json::array({"other", "toy"}));
}

TEST(ReportPageData, HostileNodeIdsStayInsideTheDataIsland) {
  // A hand-written shard (docs/trace-format.md) whose node id would close
  // the data island's <script> and open another if written as is.
  std::string nodeid = "test_x.py::test_y[</script><script>alert(1)</script><!--]";
  // ordered_json: readers know a shard by its first key, `type`.
  nlohmann::ordered_json run = {{"type", "run"},
                                {"format", "testmap-trace"},
                                {"version", 1},
                                {"worker", "main"},
                                {"metadata", {{"start_time", "2026-01-01T00:00:00+00:00"}}}};
  nlohmann::ordered_json test = {{"type", "test"},
                                 {"nodeid", nodeid},
                                 {"outcome", "passed"},
                                 {"duration", 0.5},
                                 {"start", 1.0},
                                 {"worker", "main"},
                                 {"phases", json::object()},
                                 {"ops",
                                  {{{"op", "aten::add.Tensor"},
                                    {"dtypes", {"float32"}},
                                    {"device", "cpu"},
                                    {"count", 1},
                                    {"evidence", "eager"}}}}};
  std::string dir = ScratchDir("hostile");
  WriteFile(dir + "/trace-main.jsonl", run.dump() + "\n" + test.dump() + "\n");
  auto r = Testmap({"ingest", "--index", dir + "/index", dir + "/trace-main.jsonl"});
  ASSERT_EQ(r.rc, 0) << r.err;
  r = Testmap({"report", "--index", dir + "/index", "--out", dir + "/page"});
  ASSERT_EQ(r.rc, 0) << r.err;
  std::string page = ReadFile(dir + "/page/index.html");
  EXPECT_EQ(Occurrences(page, "</script"), 2u);  // the data island's and the script's own
  EXPECT_EQ(page.find("<script>alert"), std::string::npos);
  EXPECT_EQ(page.find("<!--]"), std::string::npos);
  EXPECT_NE(page.find("\\u003c/script>\\u003cscript>alert(1)"), std::string::npos);
}

}  // namespace
}  // namespace testmap::testing
