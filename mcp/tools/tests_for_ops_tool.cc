// tests_for_ops: `testmap query --op A --op B... [--any] [filters] --format json`.
#include "mcp/tools/query_answer.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool TestsForOpsTool() {
  Tool t;
  t.name = "tests_for_ops";
  t.title = "Tests that run all (or any) of several operators";
  t.description =
      "Tests that run every one of `ops` (match all, the default) or any of them (match any), "
      "with the same filters and answer as query_op. Use it to find the tests a set of newly "
      "enabled operators covers, or the tests a set of missing operators blocks.";
  json props = QueryFilterProperties();
  props["ops"] = {{"type", "array"},
                  {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 300}}},
                  {"minItems", 1},
                  {"maxItems", 64},
                  {"description", "Operators, any spelling"}};
  props["match"] = {{"enum", {"all", "any"}},
                    {"default", "all"},
                    {"description", "Tests running all of the ops, or any of them"}};
  t.input_schema = {{"type", "object"},
                    {"properties", props},
                    {"required", {"ops"}},
                    {"additionalProperties", false}};
  t.output_schema = QueryOutputSchema();
  t.paged = "tests";
  t.run = [](const json& a, ToolContext& ctx) {
    query::QueryOptions o;
    o.ops = a["ops"].get<std::vector<std::string>>();
    o.any = a.value("match", "all") == "any";
    ReadQueryFilters(a, o);
    return QueryAnswer(o, ctx);
  };
  return t;
}

}  // namespace testmap::mcp
