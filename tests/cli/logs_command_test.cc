// `testmap logs parse` end to end: the real binary on real TORCH_LOGS text
// (tests/tracer/fixtures/torch_logs, verbatim stderr of torch runs) and on
// the same text re-prefixed the way older torch versions printed it.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

std::string Fixture(const std::string& name) {
  return SourcePath("tests/tracer/fixtures/torch_logs/" + name);
}

std::vector<json> Records(const CommandResult& r) {
  std::vector<json> out;
  for (const auto& line : Lines(r.out)) out.push_back(json::parse(line));
  return out;
}

// (graph kind, compile id, rank) -> op -> dtypes, over jsonl records.
std::map<std::string, std::map<std::string, std::vector<std::string>>> ByGraph(
    const std::vector<json>& records) {
  std::map<std::string, std::map<std::string, std::vector<std::string>>> out;
  for (const auto& r : records) {
    std::string key = r["graph"].get<std::string>() + " " +
                      (r["compile_id"].is_null() ? "-" : r["compile_id"].get<std::string>()) + " " +
                      (r["rank"].is_null() ? "-" : r["rank"].get<std::string>());
    out[key][r["op"]] = r["dtypes"].get<std::vector<std::string>>();
  }
  return out;
}

TEST(LogsCommand, RanksRecompilesAndGraphsEachWithFileAndLine) {
  auto r = Testmap({"logs", "parse", "--format", "jsonl", Fixture("two_ranks_recompile.log")});
  ASSERT_EQ(r.rc, 0) << r.err;
  auto records = Records(r);
  auto graphs = ByGraph(records);
  // Two ranks x two compiles (float32, then float64 after the recompile)
  // x (AOT forward graph + post-grad graph).
  std::set<std::string> keys;
  for (const auto& [k, _] : graphs) keys.insert(k);
  EXPECT_EQ(keys, (std::set<std::string>{"aot_graphs.forward 0/0 0", "aot_graphs.forward 0/0 1",
                                         "aot_graphs.forward 0/1 0", "aot_graphs.forward 0/1 1",
                                         "post_grad_graphs 0/0 0", "post_grad_graphs 0/0 1",
                                         "post_grad_graphs 0/1 0", "post_grad_graphs 0/1 1"}));
  EXPECT_EQ(graphs["aot_graphs.forward 0/0 0"]["aten::relu"], std::vector<std::string>{"float32"});
  EXPECT_EQ(graphs["post_grad_graphs 0/1 1"]["aten::mul.Tensor"],
            std::vector<std::string>{"float64"});
  // Each record points at its graph's header in the file.
  std::vector<std::string> lines;
  for (const auto& l : Lines(ReadFile(Fixture("two_ranks_recompile.log")))) lines.push_back(l);
  for (const auto& rec : records) {
    EXPECT_EQ(rec["evidence"], "compile");
    EXPECT_EQ(rec["file"], Fixture("two_ranks_recompile.log"));
    EXPECT_TRUE(rec["complete"].get<bool>());
    const std::string& header = lines.at(rec["line"].get<size_t>() - 1);
    EXPECT_NE(header.find("====="), std::string::npos) << header;
    EXPECT_NE(header.find("[rank" + rec["rank"].get<std::string>() + "]:"), std::string::npos);
    EXPECT_NE(header.find("[" + rec["compile_id"].get<std::string>() + "]"), std::string::npos);
  }
}

TEST(LogsCommand, EveryPrefixFormatGivesTheSameRecords) {
  auto base = Testmap({"logs", "parse", "--format", "jsonl", Fixture("suite_compile_default.log")});
  ASSERT_EQ(base.rc, 0) << base.err;
  auto expected = Records(base);
  ASSERT_GE(expected.size(), 10u);
  // The message-only fixture (TORCH_LOGS_FORMAT=%(message)s), and the same
  // text with 2.2/2.3's bracketed prefix on every line and 2.0/2.1's on each
  // message's first line only.
  std::string plain = ReadFile(Fixture("suite_compile_format_message_only.log"));
  std::string bracketed, first_only;
  bool in_message = false;
  for (const auto& line : Lines(plain)) {
    const std::string prefix =
        "[2024-01-10 12:00:00,123] [0/0] torch._functorch._aot_autograd.__aot_graphs: [INFO] ";
    bracketed += prefix + line + "\n";
    bool starts =
        line.starts_with("TRACED GRAPH") || line.find("AFTER POST GRAD") != std::string::npos;
    first_only += (starts || !in_message ? prefix : "") + line + "\n";
    in_message = true;
  }
  for (const auto& [name, text] : std::vector<std::pair<std::string, std::string>>{
           {"bracketed.log", bracketed}, {"first_line.log", first_only}}) {
    std::string path = WriteTempFile(name, text);
    auto r = Testmap({"logs", "parse", "--format", "jsonl", path});
    ASSERT_EQ(r.rc, 0) << name << r.err;
    auto got = Records(r);
    ASSERT_EQ(got.size(), expected.size()) << name;
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_EQ(got[i]["op"], expected[i]["op"]) << name;
      EXPECT_EQ(got[i]["dtypes"], expected[i]["dtypes"]) << name;
      EXPECT_EQ(got[i]["count"], expected[i]["count"]) << name;
    }
  }
  auto m = Testmap(
      {"logs", "parse", "--format", "jsonl", Fixture("suite_compile_format_message_only.log")});
  EXPECT_EQ(Records(m).size(), expected.size());
}

TEST(LogsCommand, ACutLogKeepsWhatWasWholeAndNamesTheRestWithItsLine) {
  std::string text = ReadFile(Fixture("rank0_backward_mixed_dtypes.log"));
  // Cut inside the backward graph's 5th statement.
  size_t at = text.find("===== Backward graph 0 =====");
  for (int i = 0; i < 7; ++i) at = text.find('\n', at + 1);
  at = text.find("torch.ops.", at) + 20;  // inside the call's name or arguments
  std::string path = WriteTempFile("cut.log", text.substr(0, at));
  auto r = Testmap({"logs", "parse", "--format", "jsonl", path});
  EXPECT_EQ(r.rc, 1) << "a partial answer is not exit 0";
  auto records = Records(r);
  auto graphs = ByGraph(records);
  ASSERT_TRUE(graphs.count("aot_graphs.forward 0/0 0"));
  EXPECT_TRUE(graphs["aot_graphs.forward 0/0 0"].count("aten::mm"));  // the whole graph
  ASSERT_TRUE(graphs.count("aot_graphs.backward 0/0 0"));             // what it had
  EXPECT_FALSE(graphs["aot_graphs.backward 0/0 0"].empty());
  size_t header =
      std::count(text.begin(), text.begin() + text.find("===== Backward graph"), '\n') + 1;
  size_t last = std::count(text.begin(), text.begin() + at, '\n') + 1;
  EXPECT_NE(r.err.find(path + ":" + std::to_string(last) + ": line cut short in the operator name"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find(path + ":" + std::to_string(header) +
                       ": graph aot_graphs.backward [0/0] ends before its `return`"),
            std::string::npos)
      << r.err;
  auto table = Testmap({"logs", "parse", path});
  EXPECT_NE(table.out.find(path + ":" + std::to_string(header) + " (cut)"), std::string::npos);
  EXPECT_NE(table.out.find("2 line(s) not read (on stderr)"), std::string::npos) << table.out;
}

TEST(LogsCommand, SeveralFilesJsonAndBadFiles) {
  auto r = Testmap({"logs", "parse", "--format", "json", Fixture("suite_compile_default.log"),
                    Fixture("rank0_backward_mixed_dtypes.log")});
  ASSERT_EQ(r.rc, 0) << r.err;
  json doc = json::parse(r.out);
  ASSERT_EQ(doc["files"].size(), 2u);
  EXPECT_EQ(doc["graphs"], 6 + 6);
  for (const auto& f : doc["files"]) {
    EXPECT_TRUE(f["diagnostics"].empty());
    for (const auto& g : f["graphs"]) EXPECT_FALSE(g["ops"].empty());
  }
  auto missing = Testmap({"logs", "parse", "/nonexistent/x.log"});
  EXPECT_EQ(missing.rc, 1);
  EXPECT_NE(missing.err.find("/nonexistent/x.log"), std::string::npos);
  EXPECT_EQ(Testmap({"logs", "parse"}).rc, 2);
  EXPECT_EQ(Testmap({"logs", "parse", "--format", "xml", Fixture("suite_compile_default.log")}).rc,
            2);
}

}  // namespace
}  // namespace testmap::testing
