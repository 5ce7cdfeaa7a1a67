// admit: `testmap admit [capabilities] [--state S] [--new-op OPS] --format json`.
#include "core/errors.h"
#include "mapper/admit/admit_render.h"
#include "mapper/admit/rank.h"
#include "mcp/tools/admission_answer.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {
namespace {

json AdmitOutputSchema() {
  json counts = {{"type", "object"},
                 {"properties",
                  {{"tests", {{"type", "integer"}}},
                   {"admitted", {{"type", "integer"}}},
                   {"blocked", {{"type", "integer"}}},
                   {"unknown", {{"type", "integer"}}}}},
                 {"required", {"tests", "admitted", "blocked", "unknown"}}};
  json reason = {{"type", "object"},
                 {"properties",
                  {{"kind", {{"enum", {"op", "dtype", "evidence"}}}},
                   {"op", {{"type", "string"}}},
                   {"dtypes", {{"type", "array"}}},
                   {"roles", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                   {"rule", {{"type", "string"}}},
                   {"why", {{"type", "string"}}}}},
                 {"required", {"kind"}}};
  json nullable_string = {{"type", {"string", "null"}}};
  json test = {{"type", "object"},
               {"properties",
                {{"nodeid", {{"type", "string"}}},
                 {"state", {{"enum", {"admitted", "blocked", "unknown"}}}},
                 {"generic_id", {{"type", "string"}}},
                 {"file", {{"type", "string"}}},
                 {"dtypes", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                 {"evidence_id", {{"type", "string"}}},
                 {"reasons", {{"type", "array"}, {"items", reason}}},
                 {"outcome", nullable_string},
                 {"backend_outcome", nullable_string},
                 {"seconds", {{"type", {"number", "null"}}}}}},
               {"required", {"nodeid", "state", "reasons"}}};
  return {
      {"type", "object"},
      {"properties",
       {{"capabilities",
         {{"type", "object"},
          {"description",
           "What the backend supports as read: backend, dispatch_key, origin, kernels, "
           "packets, decompositions, fallback, dtypes, opinfos"}}},
        {"device", nullable_string},
        {"counts", counts},
        {"coverage",
         {{"type", "object"}, {"description", "Scanned tests and how many of them have evidence"}}},
        {"evidence_devices", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"notes", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"files",
         {{"type", "array"},
          {"description", "Per test file: admitted, blocked, unknown, admitted_seconds"},
          {"items", {{"type", "object"}}}}},
        {"missing_ops",
         {{"type", "array"},
          {"description", "Operators the backend cannot run, by blocked tests dispatching them"},
          {"items",
           {{"type", "object"},
            {"properties",
             {{"op", {{"type", "string"}}},
              {"tests", {{"type", "integer"}}},
              {"composite_explicit", {{"type", "boolean"}}}}}}}}},
        {"new_op",
         {{"type", "object"},
          {"description",
           "With new_ops: the operators and how many tests enabling them admits (the tests "
           "are `tests`)"}}},
        {"warnings", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"tests",
         {{"type", "array"},
          {"items", test},
          {"description",
           "This page's tests with their state and reasons (sorted by node id): every test, "
           "those in `state`, or with new_ops the tests enabling them admits"}}}}},
      {"required", {"capabilities", "counts", "coverage", "missing_ops", "tests"}}};
}

}  // namespace

Tool AdmitTool() {
  Tool t;
  t.name = "admit";
  t.title = "Which tests a backend can run, and why not";
  t.description =
      "Admission of every test of the index for a backend: admitted (its dtypes pass and every "
      "operator it dispatched, in every role, is runnable: a kernel, a fallback or a "
      "decomposition), blocked (the missing operators with their dtypes and roles, or the dtype "
      "rule), unknown (no complete evidence). Say what the backend supports with `backend` "
      "(records ingested with `testmap ingest --backend NAME`), `supported` (a records file or "
      "a test_suite_config under the server's --allow paths) and/or `ops`/`dtypes`. `state` "
      "lists only the tests of one state; `new_ops` exactly the tests enabling those operators "
      "would admit. The same answer as `testmap admit --format json`; the tests are paged.";
  json props = AdmitInputProperties();
  props["state"] = {{"enum", {"admitted", "blocked", "unknown"}},
                    {"description", "List only the tests in this state"}};
  props["new_ops"] = {
      {"type", "array"},
      {"items", {{"type", "string"}, {"minLength", 1}, {"maxLength", 300}}},
      {"minItems", 1},
      {"maxItems", 64},
      {"description", "List exactly the tests enabling these operators would admit"}};
  t.input_schema = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  t.output_schema = AdmitOutputSchema();
  t.paged = "tests";
  t.expensive = true;  // a walk over every test's evidence
  t.inputs_stamp = AdmitInputsStamp;
  t.run = [](const json& a, ToolContext& ctx) {
    if (a.contains("state") && a.contains("new_ops"))
      throw core::UsageError("give state or new_ops, not both: new_ops lists the tests it admits");
    std::shared_ptr<const AdmissionState> state = AdmissionFor(a, ctx);
    auto tests = std::make_shared<std::vector<const admit::TestAdmission*>>();
    admit::AdmitReport report;
    report.admission = &state->admission;
    if (a.contains("new_ops")) {
      report.new_ops = a["new_ops"].get<std::vector<std::string>>();
      report.would_admit = admit::WouldAdmit(state->admission, report.new_ops);
      *tests = *report.would_admit;
    } else {
      std::optional<admit::State> only;
      for (auto s : {admit::State::kAdmitted, admit::State::kBlocked, admit::State::kUnknown})
        if (a.value("state", "") == admit::StateName(s)) only = s;
      for (const auto& test : state->admission.tests)
        if (!only || test.state == *only) tests->push_back(&test);
    }
    ToolAnswer answer;
    answer.body = admit::AdmitReportJson(report, /*with_tests=*/false);
    // The CLI's `new_op.admits` lists every id; here they are the paged tests.
    if (answer.body.contains("new_op")) {
      answer.body["new_op"].erase("admits");
      answer.body["new_op"]["tests"] = tests->size();
    }
    AttachAdmission(*state, ctx, answer);
    answer.list = "tests";
    answer.total = tests->size();
    answer.items = [state, tests](size_t begin, size_t end) {
      json page = json::array();
      for (size_t i = begin; i < end; ++i) page.push_back(admit::TestJson(*(*tests)[i]));
      return page;
    };
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
