// The TORCH_LOGS parser is linear in the log: a log of 4n graph lines takes
// about 4 times as long as one of n (tests/support/growth.h). Real logs of a
// full compile test run reach hundreds of MB.
#include <gtest/gtest.h>

#include "tests/support/growth.h"
#include "tracer/torch_logs_parser.h"

namespace testmap::tracer {
namespace {

// `n` statements in graphs of 50, in the 2.4+ prefix format of real logs
// (tests/tracer/fixtures/torch_logs).
std::string Log(int n) {
  const std::string prefix =
      "I1129 23:14:09.786000 10223 torch/_functorch/_aot_autograd/graph_capture.py:411] [0/0] "
      "[__aot_graphs] ";
  std::string s;
  for (int i = 0; i < n; ++i) {
    if (i % 50 == 0) {
      if (i) s += prefix + "        return (x" + std::to_string(i - 1) + ",)\n";
      s += prefix + "TRACED GRAPH\n" + prefix + " ===== Forward graph " + std::to_string(i / 50) +
           " =====\n" + prefix + "    def forward(self, arg0_1: \"f32[4, 10][10, 1]cpu\"):\n";
    }
    s += prefix + "        x" + std::to_string(i) +
         ": \"f32[4, 10][10, 1]cpu\" = torch.ops.aten.mul.Tensor(arg0_1, 0.5);  arg0_1 = None\n";
  }
  return s + prefix + "        return (x,)\n";
}

TEST(TorchLogsGrowth, ParserIsLinear) {
  testing::ExpectLinear("TORCH_LOGS", 20000, Log,
                        [](const std::string& text) { return ParseTorchLogs(text).statements; });
}

}  // namespace
}  // namespace testmap::tracer
