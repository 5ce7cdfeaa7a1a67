#include "tracer/torch_logs_line.h"

#include <gtest/gtest.h>

namespace testmap::tracer {
namespace {

TEST(TorchLogsLine, Torch24PrefixWithRankCompileIdAndArtifact) {
  // Verbatim from fixtures/torch_logs/rank0_backward_mixed_dtypes.log.
  auto line = SplitLogLine(
      "[rank0]:I1129 23:14:50.165000 10862 torch/_functorch/_aot_autograd/graph_compile.py:1833] "
      "[0/0] [__aot_graphs]     def forward(self, primals_1: \"f32[8, 16][16, 1]cpu\"):");
  EXPECT_TRUE(line.has_prefix);
  EXPECT_EQ(line.pid, "10862");
  EXPECT_EQ(line.compile_id, "[0/0]");
  EXPECT_EQ(line.artifact, "aot_graphs");
  EXPECT_EQ(line.message, "    def forward(self, primals_1: \"f32[8, 16][16, 1]cpu\"):");
}

TEST(TorchLogsLine, Torch24PrefixVariants) {
  auto retry = SplitLogLine("V0101 00:00:00.000001 7 a.py:1] [1/0_1] [__post_grad_graphs] x");
  EXPECT_EQ(retry.compile_id, "[1/0_1]");
  EXPECT_EQ(retry.artifact, "post_grad_graphs");
  EXPECT_EQ(retry.message, "x");
  auto bare = SplitLogLine("I1129 23:14:50.165000 10862 torch/x.py:12] plain message");
  EXPECT_TRUE(bare.has_prefix);
  EXPECT_EQ(bare.compile_id, "");
  EXPECT_EQ(bare.message, "plain message");
  auto empty = SplitLogLine("I1129 23:13:44.804000 10101 torch/x.py:439] [0/0] [__aot_graphs] ");
  EXPECT_EQ(empty.message, "");
}

TEST(TorchLogsLine, Torch22And23BracketDatePrefix) {
  // The 2.2/2.3 layout described in NOTES.md (constructed: torch 2.13
  // cannot print it).
  auto line = SplitLogLine(
      "[2024-01-10 12:00:00,123] [0/0] torch._functorch.aot_autograd.__aot_graphs: [INFO]         "
      "mm: \"f32[4, 4]\" = torch.ops.aten.mm.default(a, b)");
  EXPECT_TRUE(line.has_prefix);
  EXPECT_EQ(line.compile_id, "[0/0]");
  EXPECT_EQ(line.artifact, "aot_graphs");
  EXPECT_EQ(line.message, "        mm: \"f32[4, 4]\" = torch.ops.aten.mm.default(a, b)");
}

TEST(TorchLogsLine, UnknownPrefixesAndGarbageComeBackWhole) {
  for (std::string_view text :
       {"INFO:torch._functorch._aot_autograd.graph_compile.__aot_graphs:TRACED GRAPH", "", "[",
        "[rank", "[rank0]:", "I1129", "I1129 23:14:50.165000 ", "I1129 23:14:50.165000 1 x.py:1",
        "[2024-01-10 12:00:00,123]", "\xff\xfe\x00garbage"}) {
    auto line = SplitLogLine(text);
    EXPECT_FALSE(line.has_prefix) << text;
  }
}

}  // namespace
}  // namespace testmap::tracer
