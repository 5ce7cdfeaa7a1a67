// `testmap ingest --test ID LOG`: a TORCH_LOGS log (real, from
// tests/tracer/fixtures/torch_logs) becomes the compile evidence of the test
// it belongs to, next to what a trace of the suite recorded.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/command.h"
#include "tests/support/suite_evidence.h"
#include "tests/support/temp_dir.h"

namespace testmap::testing {
namespace {

using nlohmann::json;

std::string Fixture(const std::string& name) {
  return SourcePath("tests/tracer/fixtures/torch_logs/" + name);
}

std::set<std::string> Ids(const CommandResult& r) {
  auto lines = Lines(r.out);
  return {lines.begin(), lines.end()};
}

TEST(TorchLogsIngestTest, ALogBecomesTheCompileEvidenceOfItsTest) {
  std::string index = ScratchDir("logs-ingest") + "/index";
  ASSERT_EQ(Testmap({"ingest", "--index", index, ExampleSuiteEvidence().scan,
                     ExampleSuiteEvidence().trace})
                .rc,
            0);
  const std::string test = "test_compile.py::TestInductorCPU::test_fused_pointwise";
  auto r = Testmap({"ingest", "--index", index, "--test", test, "--format", "json",
                    Fixture("rank0_backward_mixed_dtypes.log")});
  ASSERT_EQ(r.rc, 0) << r.err;
  json summary = json::parse(r.out);
  EXPECT_EQ(summary["traced_tests"], 1);
  EXPECT_EQ(summary["runs"], 1);
  // The log's ops (erf from gelu, bfloat16 add, the backward's mm) are now
  // compile evidence of that test, and of no other.
  auto erf = Testmap(
      {"query", "--index", index, "--op", "erf", "--path", "compile", "--format", "nodeids"});
  EXPECT_EQ(Ids(erf), std::set<std::string>{test}) << erf.err;
  auto bf16 = Testmap({"query", "--index", index, "--op", "add.Tensor", "--dtype", "bfloat16",
                       "--path", "compile", "--format", "nodeids"});
  EXPECT_EQ(Ids(bf16), std::set<std::string>{test});
  json shown = json::parse(Testmap({"show", "--index", index, test}).out);
  std::set<std::string> recorders;
  for (const auto& [id, run] : shown["runs"].items())
    recorders.insert(run["metadata"]["recorder"].get<std::string>());
  EXPECT_EQ(recorders, (std::set<std::string>{"cpp", "torch_logs"}));
  // It keeps its outcome from the trace; the log adds none.
  EXPECT_EQ(shown["outcomes"].size(), 1u);
  EXPECT_EQ(Testmap({"index", "verify", "--index", index}).rc, 0);
  // The same log for the same test again: nothing changes.
  auto before = Testmap({"index", "dump", "--index", index}).out;
  ASSERT_EQ(Testmap({"ingest", "--index", index, "--test", test,
                     Fixture("rank0_backward_mixed_dtypes.log")})
                .rc,
            0);
  EXPECT_EQ(Testmap({"index", "dump", "--index", index}).out, before);
}

TEST(TorchLogsIngestTest, ACutLogIsIngestedUpToTheCutAndBadInputsAreRefused) {
  std::string dir = ScratchDir("logs-ingest-bad");
  std::string index = dir + "/index";
  std::string text = ReadFile(Fixture("rank0_backward_mixed_dtypes.log"));
  // Cut after the backward graph's first statements: the forward graph is
  // whole, the backward graph is not.
  size_t at = text.find("===== Backward graph");
  for (int i = 0; i < 6; ++i) at = text.find('\n', at + 1);
  std::string cut = WriteTempFile("cut.log", text.substr(0, at + 1));
  auto r = Testmap({"ingest", "--index", index, "--test", "t.py::test_a", cut});
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("warning: " + cut + ":"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ends before its `return`"), std::string::npos) << r.err;
  auto mm = Testmap({"query", "--index", index, "--op", "mm", "--format", "nodeids"});
  EXPECT_EQ(Ids(mm), std::set<std::string>{"t.py::test_a"});
  auto before = Testmap({"index", "dump", "--index", index}).out;
  // A trace shard is not a log; a file without graphs says what it lacks;
  // neither writes anything.
  for (const auto& [file, message] : std::vector<std::pair<std::string, std::string>>{
           {ExampleSuiteEvidence().trace, "--test takes TORCH_LOGS logs"},
           {WriteTempFile("plain.log", "just some output\nno graphs here\n"),
            "no aot_graphs or post_grad_graphs graph"}}) {
    auto bad = Testmap({"ingest", "--index", index, "--test", "t.py::test_a", file});
    EXPECT_EQ(bad.rc, 1);
    EXPECT_NE(bad.err.find(file + ": " + message), std::string::npos) << bad.err;
  }
  EXPECT_EQ(Testmap({"index", "dump", "--index", index}).out, before);
}

}  // namespace
}  // namespace testmap::testing
