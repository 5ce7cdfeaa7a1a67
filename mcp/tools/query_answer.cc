#include "mcp/tools/query_answer.h"

#include "mapper/query/query_json.h"

namespace testmap::mcp {

namespace {

json QueryFilterProperties() {
  return {
      {"dtypes",
       {{"type", "array"},
        {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 64}}},
        {"maxItems", 32},
        {"description",
         "Only observations with any of these dtypes (torch names: float32, bfloat16, int64...; "
         "c10 and TORCH_LOGS spellings also work)"}}},
      {"device",
       {{"type", "string"},
        {"minLength", 1},
        {"maxLength", 64},
        {"description", "Only on this device type (cpu, cuda, a PrivateUse1 backend's name)"}}},
      {"path",
       {{"enum", {"eager", "compile", "static"}},
        {"description",
         "Only this evidence: eager (dispatcher trace), compile (torch.compile graphs), static "
         "(@ops OpInfo name)"}}},
      {"role",
       {{"anyOf",
         {{{"type", "string"}, {"minLength", 1}, {"maxLength", 64}},
          {{"type", "array"},
           {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 64}}},
           {"minItems", 1},
           {"maxItems", 8}}}},
        {"default", "test"},
        {"description",
         "Where in the test the operator ran: test (its own code, the default), assert "
         "(assertEqual/assert_close), inputs (make_tensor, OpInfo sample inputs), setup, teardown, "
         "or all; a list (or a comma-separated string) for several"}}},
      {"group",
       {{"enum", {"test", "generic"}},
        {"default", "test"},
        {"description", "One item per test node id, or per generic test (device/dtype template)"}}},
  };
}

void ReadQueryFilters(const json& a, query::QueryOptions& o) {
  if (a.contains("dtypes")) o.dtypes = a["dtypes"].get<std::vector<std::string>>();
  o.device = a.value("device", "");
  o.path = a.value("path", "");
  o.group = a.value("group", "test");
  if (auto r = a.find("role"); r != a.end()) {
    o.roles = r->is_string() ? std::vector<std::string>{r->get<std::string>()}
                             : r->get<std::vector<std::string>>();
  }
}

json QueryOutputSchema() {
  json nullable_string = {{"type", {"string", "null"}}};
  json use = {{"type", "object"},
              {"properties",
               {{"dtypes", {{"type", "array"}, {"items", {{"type", "array"}}}}},
                {"devices", {{"type", "array"}}},
                {"evidence", {{"type", "array"}}},
                {"calls", {{"type", "integer"}}},
                {"runs", {{"type", "array"}}}}}};
  json test = {{"type", "object"},
               {"properties",
                {{"nodeid", {{"type", "string"}}},
                 {"generic_id", nullable_string},
                 {"file", nullable_string},
                 {"line_start", {{"type", {"integer", "null"}}}},
                 {"line_end", {{"type", {"integer", "null"}}}},
                 {"ops", {{"type", "object"}, {"additionalProperties", use}}},
                 {"outcome", nullable_string},
                 {"duration", {{"type", {"number", "null"}}}},
                 {"runs", {{"type", "integer"}}}}},
               {"required", {"nodeid", "ops"}}};
  json generic = {{"type", "object"},
                  {"properties",
                   {{"generic_id", {{"type", "string"}}},
                    {"tests", {{"type", "array"}, {"items", test}}},
                    {"duration", {{"type", "number"}}}}},
                  {"required", {"generic_id", "tests"}}};
  return {
      {"type", "object"},
      {"properties",
       {{"query",
         {{"type", "object"},
          {"description", "The question as resolved: canonical operators, match, filters"},
          {"properties", {{"ops", {{"type", "array"}, {"items", {{"type", "string"}}}}}}}}},
        {"count", {{"type", "integer"}, {"description", "Tests (or generic tests) in all pages"}}},
        {"tests_in_other_roles",
         {{"type", "integer"},
          {"description", "Tests that would match were every role counted (see `role`)"}}},
        {"untested_ops",
         {{"type", "array"},
          {"items", {{"type", "string"}}},
          {"description", "Operators asked for that torch registers but no test runs"}}},
        {"tests",
         {{"type", {"array", "integer"}},
          {"items", test},
          {"description",
           "This page's tests (sorted by node id); for group generic, the number of tests"}}},
        {"generic_tests", {{"type", "array"}, {"items", generic}}}}},
      {"required", {"query", "count", "tests"}}};
}

}  // namespace

Tool QueryTool(std::string name, std::string title, std::string description, json operators,
               const std::string& required,
               std::function<void(const json&, query::QueryOptions&)> read) {
  Tool t;
  t.name = std::move(name);
  t.title = std::move(title);
  t.description = std::move(description);
  json props = QueryFilterProperties();
  props.update(operators);
  t.input_schema = {{"type", "object"},
                    {"properties", props},
                    {"required", {required}},
                    {"additionalProperties", false}};
  t.output_schema = QueryOutputSchema();
  t.paged = "tests";
  t.run = [read](const json& a, ToolContext& ctx) {
    query::QueryOptions o;
    read(a, o);
    ReadQueryFilters(a, o);
    return QueryAnswer(o, ctx);
  };
  return t;
}

ToolAnswer QueryAnswer(query::QueryOptions options, ToolContext& ctx) {
  ctx.index();  // throws when there is none
  std::shared_ptr<const OpenIndex> index = ctx.index_ptr();
  bool generic = options.group == "generic";
  // Details (source, outcome, duration: one read per test) only for the
  // tests of the page asked for; generic groups need them to group.
  options.details = generic;
  // As the CLI's query: an operator torch registers that no test runs is an
  // empty answer, a name torch lacks too an unknown name.
  options.torch_operators = [&ctx] {
    std::vector<std::string> names;
    try {
      for (const auto& op : ctx.torch().operators) names.push_back(op.name);
    } catch (const std::exception&) {
      // No torch here: the index's own operators are what a query knows.
    }
    return names;
  };
  query::QueryResult made = query::RunQuery(index->reader(), options);
  made.options.torch_operators = nullptr;  // it refers to this call's context
  auto result = std::make_shared<const query::QueryResult>(std::move(made));
  ToolAnswer answer;
  for (const auto& t : result->tests) {
    for (const auto& [op, use] : t.ops) answer.runs.insert(use.runs.begin(), use.runs.end());
  }
  // The CLI's document (query::QueryResultJson) less its list, which pages.
  answer.body = {{"query", query::QueryQuestionJson(*result)},
                 {"count", generic ? result->groups.size() : result->tests.size()},
                 {"tests_in_other_roles", result->tests_in_other_roles},
                 {"untested_ops", result->untested_ops}};
  if (generic) {
    answer.body["tests"] = result->tests.size();
    answer.list = "generic_tests";
    answer.total = result->groups.size();
    answer.items = [result](size_t begin, size_t end) {
      json page = json::array();
      for (size_t i = begin; i < end; ++i)
        page.push_back(query::GenericMatchJson(result->groups[i]));
      return page;
    };
  } else {
    answer.list = "tests";
    answer.total = result->tests.size();
    answer.items = [result, index](size_t begin, size_t end) {
      std::vector<query::TestMatch> tests(result->tests.begin() + begin,
                                          result->tests.begin() + end);
      query::FillTestDetails(index->reader(), tests);
      json page = json::array();
      for (const auto& t : tests) page.push_back(query::TestMatchJson(t));
      return page;
    };
  }
  return answer;
}

}  // namespace testmap::mcp
