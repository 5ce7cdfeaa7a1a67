// list_ops: `testmap ops --sort S --format json`.
#include "mapper/query/op_coverage.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool ListOpsTool() {
  Tool t;
  t.name = "list_ops";
  t.title = "Every operator in the index with its coverage";
  t.description =
      "Every operator the index has evidence for, with how many tests run it, the dtypes, "
      "devices and evidence (eager, compile, static) seen: the coverage overview. Sorted by "
      "test count (most first) or by name; paged.";
  t.input_schema = {{"type", "object"},
                    {"properties",
                     {{"sort",
                       {{"enum", {"tests", "name"}},
                        {"default", "tests"},
                        {"description", "Most-tested first, or by name"}}}}},
                    {"additionalProperties", false}};
  json op = {{"type", "object"},
             {"properties",
              {{"op", {{"type", "string"}}},
               {"tests", {{"type", "integer"}}},
               {"dtypes", {{"type", "array"}, {"items", {{"type", "string"}}}}},
               {"evidence", {{"type", "array"}, {"items", {{"type", "string"}}}}},
               {"devices", {{"type", "array"}, {"items", {{"type", "string"}}}}}}},
             {"required", {"op", "tests"}}};
  t.output_schema = {
      {"type", "object"},
      {"properties",
       {{"count", {{"type", "integer"}}}, {"ops", {{"type", "array"}, {"items", op}}}}},
      {"required", {"count", "ops"}}};
  t.paged = "ops";
  t.expensive = true;  // a walk over every edge: keep it for the next call
  t.run = [](const json& a, ToolContext& ctx) {
    const OpenIndex& index = ctx.index();
    ToolAnswer answer;
    json list = json::array();
    bool static_evidence = false;
    for (const auto& row : query::ReadOpCoverage(index.reader(), a.value("sort", "tests"))) {
      static_evidence = static_evidence || row.evidence.count("static");
      list.push_back(query::OpCoverageJson(row));
    }
    answer.body = {{"count", list.size()}};
    answer.SetList("ops", std::move(list));
    answer.runs = index.AllRuns();
    if (static_evidence) answer.runs.insert("static");
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
