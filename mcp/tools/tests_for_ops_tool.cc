// tests_for_ops: `testmap query --op A --op B... [--any] [filters] --format json`.
#include "mcp/tools/query_answer.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool TestsForOpsTool() {
  return QueryTool(
      "tests_for_ops", "Tests that run all (or any) of several operators",
      "Tests that run every one of `ops` (match all, the default) or any of them (match any), "
      "with the same filters and answer as query_op. Use it to find the tests a set of newly "
      "enabled operators covers, or the tests a set of missing operators blocks.",
      {{"ops",
        {{"type", "array"},
         {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 300}}},
         {"minItems", 1},
         {"maxItems", 64},
         {"description", "Operators, any spelling"}}},
       {"match",
        {{"enum", {"all", "any"}},
         {"default", "all"},
         {"description", "Tests running all of the ops, or any of them"}}}},
      "ops", [](const json& a, query::QueryOptions& o) {
        o.ops = a["ops"].get<std::vector<std::string>>();
        o.any = a.value("match", "all") == "any";
      });
}

}  // namespace testmap::mcp
