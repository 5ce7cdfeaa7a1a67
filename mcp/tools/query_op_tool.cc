// query_op: `testmap query --op NAME [filters] --format json`.
#include "mcp/tools/query_answer.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool QueryOpTool() {
  Tool t;
  t.name = "query_op";
  t.title = "Tests that run an operator";
  t.description =
      "Which tests run an ATen operator, with which dtypes, on which device and path, how long "
      "they took and where they are defined. `op` in any spelling: _scaled_mm, aten::add, "
      "add.Tensor, aten.add.Tensor, torch.ops.aten.add.Tensor; a packet (add) matches all its "
      "overloads. Filters apply per observation: dtypes [bfloat16] with path compile means ran "
      "it with bfloat16 in a compiled graph. An unknown operator is a tool error with the "
      "closest known names.";
  json props = QueryFilterProperties();
  props["op"] = {{"type", "string"},
                 {"minLength", 1},
                 {"maxLength", 300},
                 {"description", "Operator overload or packet"}};
  t.input_schema = {{"type", "object"},
                    {"properties", props},
                    {"required", {"op"}},
                    {"additionalProperties", false}};
  t.output_schema = QueryOutputSchema();
  t.paged = "tests";
  t.run = [](const json& a, ToolContext& ctx) {
    query::QueryOptions o;
    o.ops = {a["op"].get<std::string>()};
    ReadQueryFilters(a, o);
    return QueryAnswer(o, ctx);
  };
  return t;
}

}  // namespace testmap::mcp
