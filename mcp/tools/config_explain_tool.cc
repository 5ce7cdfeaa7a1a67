// config_explain: `testmap config explain CONFIG [--test ID] [--device D] --format json`,
// the config read only under --allow.
#include "mapper/config/config_explain.h"
#include "mapper/config/config_reader.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool ConfigExplainTool() {
  Tool t;
  t.name = "config_explain";
  t.title = "The mode a test_suite_config gives each test, and why";
  t.description =
      "For a backend test config (test_suite_config YAML, a file under the server's --allow "
      "paths), the mode it gives each instantiated test of the index (mandatory_success, xfail, "
      "xfail_strict, skip, or not governed) and what decided it: the entry (file:line), the "
      "file's unlisted_test_mode or the default, and the dtype or OpInfo rule that skips it; "
      "with the counts per mode. `test` narrows it to one node id or generic id. The same as "
      "`testmap config explain --format json`; the tests are paged. A malformed config is a "
      "tool error naming its line and column.";
  t.input_schema = {
      {"type", "object"},
      {"properties",
       {{"config",
         {{"type", "string"},
          {"minLength", 1},
          {"maxLength", 4096},
          {"description", "The config file, under the server's --allow paths"}}},
        {"test",
         {{"type", "string"},
          {"minLength", 1},
          {"maxLength", 4096},
          {"description", "Only this node id or generic id"}}},
        {"device",
         {{"type", "string"},
          {"minLength", 1},
          {"maxLength", 64},
          {"description", "Only tests instantiated for this device"}}},
        {"root_token",
         {{"type", "string"},
          {"minLength", 1},
          {"maxLength", 256},
          {"default", "${TORCH_ROOT}"},
          {"description", "What the config's paths start with for the node ids' root"}}}}},
      {"required", {"config"}},
      {"additionalProperties", false}};
  json test = {{"type", "object"},
               {"properties",
                {{"nodeid", {{"type", "string"}}},
                 {"file", {{"type", "string"}}},
                 {"generic", {{"type", "string"}}},
                 {"governed", {{"type", "boolean"}}},
                 {"mode",
                  {{"enum", {"mandatory_success", "xfail", "xfail_strict", "skip", nullptr}},
                   {"description", "null when the config does not govern the test"}}},
                 {"decided_by", {{"type", "string"}}},
                 {"rule", {{"type", {"string", "null"}}}}}},
               {"required", {"nodeid", "governed", "mode", "decided_by"}}};
  t.output_schema = {{"type", "object"},
                     {"properties",
                      {{"config", {{"type", "string"}}},
                       {"counts",
                        {{"type", "object"},
                         {"additionalProperties", {{"type", "integer"}}},
                         {"description", "Mode (or `not governed`) -> tests"}}},
                       {"warnings", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                       {"tests", {{"type", "array"}, {"items", test}}}}},
                     {"required", {"config", "counts", "tests"}}};
  t.paged = "tests";
  t.expensive = true;  // a walk over every test of the index
  t.inputs_stamp = [](const json& a, ToolContext& ctx) {
    try {
      return FileStamp(ctx.paths().Resolve(a["config"]));
    } catch (const std::exception&) {
      return std::string("?");  // the run says why
    }
  };
  t.run = [](const json& a, ToolContext& ctx) {
    std::string path = ctx.paths().Resolve(a["config"]);
    std::vector<config::Diagnostic> warnings;
    config::Config cfg = config::LoadConfig(path, &warnings);
    const OpenIndex& index = ctx.index();
    config::ExplainRequest request{a.value("root_token", "${TORCH_ROOT}"), a.value("test", ""),
                                   a.value("device", "")};
    auto explained = std::make_shared<const config::Explanation>(
        config::Explain(index.reader().store(), cfg, request));
    ToolAnswer answer;
    answer.body = {{"config", explained->config}, {"counts", explained->counts}};
    if (!warnings.empty()) {
      json list = json::array();
      for (const auto& w : warnings) list.push_back(w.ToString());
      answer.body["warnings"] = list;
    }
    answer.files.push_back(FileRead(path));
    // The tests explained are every scanned and traced test of the index.
    answer.runs = index.AllRuns();
    // A page of tests becomes JSON when it is asked for (the CLI's
    // rendering of a slice), not a suite's worth at once.
    answer.list = "tests";
    answer.total = explained->tests.size();
    answer.items = [explained](size_t begin, size_t end) {
      config::Explanation slice;
      slice.tests.assign(explained->tests.begin() + begin, explained->tests.begin() + end);
      return std::move(config::ExplanationJson(slice)["tests"]);
    };
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
