// Turns TORCH_LOGS graph artifacts (aot_graphs, post_grad_graphs) into the
// operator overloads a torch.compile'd test runs, with dtypes and devices:
// the `compile` evidence of a trace (docs/trace-format.md).
//
// A graph statement looks like
//   mm: "f32[4, 4][4, 1]cpu" = torch.ops.aten.mm.default(primals_1, primals_2)
// and the graph's inputs are declared in its `def forward(self, a: "...")`
// signature. Dtypes and devices follow the eager recorder's rule: the
// distinct dtypes of the tensor inputs (looked up from the annotations of
// the variables passed in), the first non-CPU input device; the output's
// annotation when no tensor goes in (factory ops like full/arange).
//
// The parser never fails and never throws: logs come truncated by a crash,
// interleaved by threads and processes, or mixed with unrelated output.
// What cannot be read becomes a Diagnostic naming the line; every whole
// statement is kept, and a graph the log ends inside is kept with what it
// had and named (`complete` false, a Diagnostic at its line).
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::tracer {

struct CompileOp {
  std::string op;                     // canonical overload, `aten::mm`
  std::vector<std::string> dtypes;    // torch names, `float32`
  std::optional<std::string> device;  // `cpu`, `cuda`; none in pre-2.1 logs
  uint64_t count = 0;                 // graph nodes calling it
  std::set<std::string> graphs;       // `aot_graphs.forward`, `post_grad_graphs`, ...
};

struct Diagnostic {
  size_t line = 0;  // 1-based, in the text given to ParseTorchLogs
  std::string message;
};

// One graph as the log printed it, where it printed it.
struct CompileGraph {
  // What the graph is: `aot_graphs.forward`, `aot_graphs.backward`,
  // `aot_graphs.inference`, `aot_graphs.joint`, `post_grad_graphs`, the
  // artifact alone when no header says more, `graph` when nothing does.
  std::string kind;
  std::string artifact;        // from the line prefix: `aot_graphs`; "" without one
  std::string compile_id;      // `0/0`, `1/0_1` (frame/compile[_attempt]): recompiles differ
  std::string rank;            // `[rankN]:` digits; "" outside torch.distributed
  std::string pid;             // "" when the prefix has none
  size_t line = 0;             // its header (`===== Forward graph 0 =====`), else `def forward(`
  std::vector<CompileOp> ops;  // its statements, sorted; `graphs` = {kind}
  bool complete = false;       // its `return` was read (false: the log ends inside it)
};

struct TorchLogsResult {
  std::vector<CompileOp> ops;            // over all graphs, sorted by op, dtypes, device
  std::vector<CompileGraph> graph_list;  // in the order their headers appear
  std::vector<Diagnostic> diagnostics;
  size_t graphs = 0;      // graph headers seen (`def forward(`)
  size_t statements = 0;  // op calls parsed
};

TorchLogsResult ParseTorchLogs(std::string_view text);

}  // namespace testmap::tracer
