#include "tracer/torch_logs_parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

namespace testmap::tracer {
namespace {

std::string Fixture(const std::string& name) {
  std::string path = std::string(TESTMAP_SOURCE_DIR) + "/tests/tracer/fixtures/torch_logs/" + name;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "missing fixture " << path;
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

const CompileOp* Find(const TorchLogsResult& r, std::string_view op,
                      const std::vector<std::string>& dtypes) {
  for (const auto& o : r.ops) {
    if (o.op == op && o.dtypes == dtypes) return &o;
  }
  return nullptr;
}

// Real logs of examples/suite/test_compile.py under torch 2.13, in the
// default format and two TORCH_LOGS_FORMAT variants: same graphs, same ops.
TEST(TorchLogsParser, RealSuiteLogsInEveryFormatGiveTheSameOps) {
  auto base = ParseTorchLogs(Fixture("suite_compile_default.log"));
  EXPECT_TRUE(base.diagnostics.empty()) << base.diagnostics[0].message;
  EXPECT_EQ(base.graphs, 6u);  // 3 tests x (forward + post grad)
  for (auto [op, dtype] : {std::pair{"aten::sigmoid", "float32"},
                           {"aten::mm", "float32"},
                           {"aten::relu", "float32"},
                           {"aten::amax", "float32"},
                           {"aten::mul.Tensor", "float32"},
                           {"aten::add.Tensor", "float32"}}) {
    const CompileOp* found = Find(base, op, {dtype});
    ASSERT_NE(found, nullptr) << op;
    EXPECT_EQ(found->device, "cpu");
    EXPECT_TRUE(found->graphs.count("aot_graphs.forward")) << op;
    EXPECT_TRUE(found->graphs.count("post_grad_graphs")) << op;
  }
  for (auto name :
       {"suite_compile_format_levelname.log", "suite_compile_format_message_only.log"}) {
    auto other = ParseTorchLogs(Fixture(name));
    ASSERT_EQ(other.ops.size(), base.ops.size()) << name;
    for (size_t i = 0; i < base.ops.size(); ++i) {
      EXPECT_EQ(other.ops[i].op, base.ops[i].op) << name;
      EXPECT_EQ(other.ops[i].dtypes, base.ops[i].dtypes) << name;
      EXPECT_EQ(other.ops[i].count, base.ops[i].count) << name;
    }
  }
}

TEST(TorchLogsParser, RealRankPrefixedLogWithBackwardAndCasts) {
  auto r = ParseTorchLogs(Fixture("rank0_backward_mixed_dtypes.log"));
  EXPECT_TRUE(r.diagnostics.empty());
  const CompileOp* mm = Find(r, "aten::mm", {"float32"});
  ASSERT_NE(mm, nullptr);
  EXPECT_TRUE(mm->graphs.count("aot_graphs.backward"));
  // (a.to(bfloat16) + b) runs add in bfloat16; .to(int64).sum() sums int64.
  EXPECT_NE(Find(r, "aten::add.Tensor", {"bfloat16"}), nullptr);
  EXPECT_NE(Find(r, "aten::sum", {"int64"}), nullptr);
  EXPECT_NE(Find(r, "prims::convert_element_type", {"float32"}), nullptr);
}

TEST(TorchLogsParser, OldUnquotedAnnotationsAndFactoryOps) {
  // Pre-2.1 graphs print `f32[4, 4]` without quotes, strides or device.
  auto r = ParseTorchLogs(
      "def forward(self, arg0_1: f32[4, 4], arg1_1: i64[4]):\n"
      "    mm: f32[4, 4] = torch.ops.aten.mm.default(arg0_1, arg0_1)\n"
      "    index: f32[4] = torch.ops.aten.index.Tensor(mm, [arg1_1])\n"
      "    full: \"bf16[2][1]cuda:0\" = torch.ops.aten.full.default([2], 1.0, dtype = "
      "torch.bfloat16)\n");
  ASSERT_NE(Find(r, "aten::mm", {"float32"}), nullptr);
  EXPECT_EQ(Find(r, "aten::mm", {"float32"})->device, std::nullopt);
  EXPECT_NE(Find(r, "aten::index.Tensor", {"float32", "int64"}), nullptr);
  const CompileOp* full = Find(r, "aten::full", {"bfloat16"});
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->device, "cuda");
}

TEST(TorchLogsParser, TruncatedLogsNeverCrashAndNameTheLine) {
  std::string text = Fixture("rank0_backward_mixed_dtypes.log");
  // Cut at many points, including mid-statement and mid-prefix.
  for (size_t cut = 0; cut < text.size(); cut += 97) {
    auto r = ParseTorchLogs(std::string_view(text).substr(0, cut));
    EXPECT_LE(r.statements, 200u);
  }
  auto r = ParseTorchLogs(
      "def forward(self, a: \"f32[4][1]cpu\"):\n"
      "    neg: \"f32[4][1]cpu\" = torch.ops.aten.neg.default(a)\n"
      "    mm: \"f32[4][1]cpu\" = torch.ops.aten.mm.default(a, ");
  ASSERT_EQ(r.diagnostics.size(), 2u);
  EXPECT_EQ(r.diagnostics[0].line, 3u);
  EXPECT_NE(r.diagnostics[0].message.find("unterminated call to aten::mm"), std::string::npos);
  // What was whole is kept; the graph the log ends in is named at its line.
  EXPECT_NE(Find(r, "aten::neg", {"float32"}), nullptr);
  ASSERT_EQ(r.graph_list.size(), 1u);
  EXPECT_FALSE(r.graph_list[0].complete);
  EXPECT_EQ(r.diagnostics[1].line, 1u);
  EXPECT_NE(r.diagnostics[1].message.find("graph graph ends before its `return`"),
            std::string::npos)
      << r.diagnostics[1].message;
}

TEST(TorchLogsParser, EveryGraphWithItsKindCompileIdRankAndLine) {
  auto r = ParseTorchLogs(Fixture("rank0_backward_mixed_dtypes.log"));
  ASSERT_TRUE(r.diagnostics.empty()) << r.diagnostics[0].message;
  std::vector<std::string> seen;
  for (const auto& g : r.graph_list) {
    EXPECT_TRUE(g.complete) << g.kind << " " << g.line;
    EXPECT_EQ(g.rank, "0");
    EXPECT_EQ(g.pid, "10862");
    EXPECT_FALSE(g.ops.empty());
    seen.push_back(g.kind + " " + g.compile_id);
  }
  // Two compiled frames (0/0: matmul+gelu with its backward, 1/0: the
  // casts), each logged by AOT autograd and after post-grad passes.
  EXPECT_EQ(seen, (std::vector<std::string>{"aot_graphs.forward 0/0", "aot_graphs.backward 0/0",
                                            "post_grad_graphs 0/0", "post_grad_graphs 0/0",
                                            "aot_graphs.forward 1/0", "post_grad_graphs 1/0"}))
      << ::testing::PrintToString(seen);
  // The forward graph's header is at its line in the file.
  std::string text = Fixture("rank0_backward_mixed_dtypes.log");
  size_t at = text.find("===== Forward graph 0 =====");
  EXPECT_EQ(r.graph_list[0].line,
            static_cast<size_t>(std::count(text.begin(), text.begin() + at, '\n') + 1));
  const CompileOp& first = r.graph_list[0].ops.front();
  EXPECT_EQ(first.graphs, (std::set<std::string>{"aot_graphs.forward"}));
}

TEST(TorchLogsParser, InterleavedProcessesKeepTheirOwnVariables) {
  // Two processes logging the same variable names with different dtypes,
  // lines interleaved: the pid/compile-id scope keeps them apart.
  auto r = ParseTorchLogs(
      "I0101 00:00:00.000001 100 a.py:1] [0/0] [__aot_graphs]     def forward(self, x: "
      "\"f32[4][1]cpu\"):\n"
      "I0101 00:00:00.000002 200 a.py:1] [0/0] [__aot_graphs]     def forward(self, x: "
      "\"bf16[4][1]cpu\"):\n"
      "I0101 00:00:00.000003 100 a.py:1] [0/0] [__aot_graphs]         y: \"f32[4][1]cpu\" = "
      "torch.ops.aten.neg.default(x)\n"
      "I0101 00:00:00.000004 200 a.py:1] [0/0] [__aot_graphs]         y: \"bf16[4][1]cpu\" = "
      "torch.ops.aten.neg.default(x)\n");
  EXPECT_NE(Find(r, "aten::neg", {"float32"}), nullptr);
  EXPECT_NE(Find(r, "aten::neg", {"bfloat16"}), nullptr);
  EXPECT_EQ(r.ops.size(), 2u);
}

TEST(TorchLogsParser, GarbageNeverCrashes) {
  std::mt19937 rng(1234);
  std::string alphabet = "torch.ops.aten.mm(\"f32[]:= ,)\n\xff\0[rank0]:I0101 12:00:00.1 1 x:1] ";
  for (int round = 0; round < 300; ++round) {
    std::string text;
    size_t n = rng() % 400;
    for (size_t i = 0; i < n; ++i) text += alphabet[rng() % alphabet.size()];
    auto r = ParseTorchLogs(text);
    EXPECT_LE(r.diagnostics.size(), 1000u);
  }
  auto r = ParseTorchLogs(
      "torch.ops.\ntorch.ops.aten.\ntorch.ops.a.b.c.d.e(x)\nx: \"zz[1]\" = "
      "torch.ops.aten.mm.default(x)\n");
  EXPECT_FALSE(r.diagnostics.empty());
}

}  // namespace
}  // namespace testmap::tracer
