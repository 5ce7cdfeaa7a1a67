// query_op: `testmap query --op NAME [filters] --format json`.
#include "mcp/tools/query_answer.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool QueryOpTool() {
  return QueryTool(
      "query_op", "Tests that run an operator",
      "Which tests run an ATen operator, with which dtypes, on which device and path, how long "
      "they took and where they are defined. `op` in any spelling: _scaled_mm, aten::add, "
      "add.Tensor, aten.add.Tensor, torch.ops.aten.add.Tensor; a packet (add) matches all its "
      "overloads. Filters apply per observation: dtypes [bfloat16] with path compile means ran "
      "it with bfloat16 in a compiled graph. By default only the test's own code counts (role "
      "test); `role` all (or assert, inputs, setup, teardown) adds what assertEqual, make_tensor "
      "and fixtures ran for it. An unknown operator is a tool error with the "
      "closest known names.",
      {{"op",
        {{"type", "string"},
         {"minLength", 1},
         {"maxLength", 300},
         {"description", "Operator overload or packet"}}}},
      "op", [](const json& a, query::QueryOptions& o) { o.ops = {a["op"].get<std::string>()}; });
}

}  // namespace testmap::mcp
