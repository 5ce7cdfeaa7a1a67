// show_test: `testmap show TEST --format json`.
#include "mapper/query/test_document.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool ShowTestTool() {
  Tool t;
  t.name = "show_test";
  t.title = "Everything known about one test";
  t.description =
      "One test by pytest node id (file.py::Class::test_x_cpu_float32), or a generic test "
      "(file.py::Class::test_x) with all its instantiations: source location, params, "
      "decorators, every operator with its observations (evidence, device, dtypes, calls, run), "
      "outcomes latest first, and the full records of the runs they came from. A generic "
      "test's instantiations are paged.";
  t.input_schema = {{"type", "object"},
                    {"properties",
                     {{"test",
                       {{"type", "string"},
                        {"minLength", 1},
                        {"maxLength", 4096},
                        {"description", "Node id or generic id"}}}}},
                    {"required", {"test"}},
                    {"additionalProperties", false}};
  json test = {{"type", "object"},
               {"properties",
                {{"nodeid", {{"type", "string"}}},
                 {"ops", {{"type", "array"}, {"items", {{"type", "object"}}}}},
                 {"outcomes", {{"type", "array"}, {"items", {{"type", "object"}}}}}}},
               {"required", {"nodeid", "ops", "outcomes"}}};
  t.output_schema = {
      {"type", "object"},
      {"properties",
       {{"nodeid", {{"type", "string"}}},
        {"generic_id", {{"type", {"string", "null"}}}},
        {"ops", {{"type", "array"}, {"items", {{"type", "object"}}}}},
        {"outcomes", {{"type", "array"}, {"items", {{"type", "object"}}}}},
        {"tests", {{"type", "array"}, {"items", test}, {"description", "A generic test's"}}},
        {"runs", {{"type", "object"}, {"description", "Run id -> the run's record"}}}}},
      {"required", {"runs"}}};
  t.paged = "tests";
  t.run = [](const json& a, ToolContext& ctx) {
    const OpenIndex& index = ctx.index();
    ToolAnswer answer;
    answer.body = query::TestDocument(index.reader(), a["test"].get<std::string>());
    for (const auto& [id, _] : answer.body["runs"].items()) answer.runs.insert(id);
    auto collect_static = [&](const json& test) {
      for (const auto& op : test.value("ops", json::array())) {
        if (op.value("run", "") == "static") answer.runs.insert("static");
      }
    };
    if (answer.body.contains("tests")) {
      for (const auto& test : answer.body["tests"]) collect_static(test);
      json tests = std::move(answer.body["tests"]);
      answer.body.erase("tests");
      answer.SetList("tests", std::move(tests));
    } else {
      collect_static(answer.body);  // one test: nothing to page
    }
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
