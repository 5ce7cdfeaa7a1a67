// rank_next_ops: `testmap admit [capabilities] --rank [--steps N] --format json`'s `rank`.
#include "mapper/admit/admit_render.h"
#include "mapper/admit/rank.h"
#include "mcp/tools/admission_answer.h"
#include "mcp/tools/tools.h"

namespace testmap::mcp {

Tool RankNextOpsTool() {
  Tool t;
  t.name = "rank_next_ops";
  t.title = "Which operators a backend should enable next";
  t.description =
      "For a backend (the same capabilities as admit), every missing operator with the blocked "
      "tests it alone would admit (it is their only missing operator), their traced seconds and "
      "the tests that need it at all, most first; and a greedy sequence of `steps` steps, each "
      "enabling the operator (or the set a group of tests needs together) that admits the most, "
      "with cumulative tests and seconds. The same as `testmap admit --rank --format json`'s "
      "`rank`; the operators are paged.";
  json props = AdmitInputProperties();
  props["steps"] = {{"type", "integer"},
                    {"minimum", 0},
                    {"maximum", 1000},
                    {"default", 10},
                    {"description", "Length of the greedy sequence"}};
  t.input_schema = {{"type", "object"}, {"properties", props}, {"additionalProperties", false}};
  json gain = {{"type", "object"},
               {"properties",
                {{"op", {{"type", "string"}}},
                 {"tests", {{"type", "integer"}}},
                 {"seconds", {{"type", "number"}}},
                 {"blocking", {{"type", "integer"}}}}},
               {"required", {"op", "tests", "seconds", "blocking"}}};
  json step = {{"type", "object"},
               {"properties",
                {{"ops", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                 {"tests", {{"type", "integer"}}},
                 {"seconds", {{"type", "number"}}},
                 {"total_tests", {{"type", "integer"}}},
                 {"total_seconds", {{"type", "number"}}}}},
               {"required", {"ops", "tests", "total_tests"}}};
  t.output_schema = {
      {"type", "object"},
      {"properties",
       {{"capabilities", {{"type", "object"}}},
        {"device", {{"type", {"string", "null"}}}},
        {"counts", {{"type", "object"}}},
        {"coverage", {{"type", "object"}}},
        {"notes", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"warnings", {{"type", "array"}, {"items", {{"type", "string"}}}}},
        {"unlockable",
         {{"type", "integer"}, {"description", "Blocked tests operators alone would admit"}}},
        {"steps", {{"type", "array"}, {"items", step}}},
        {"ops",
         {{"type", "array"},
          {"items", gain},
          {"description", "This page of the missing operators, most tests admitted first"}}}}},
      {"required", {"capabilities", "counts", "unlockable", "steps", "ops"}}};
  t.paged = "ops";
  t.expensive = true;
  t.inputs_stamp = AdmitInputsStamp;
  t.run = [](const json& a, ToolContext& ctx) {
    std::shared_ptr<const AdmissionState> state = AdmissionFor(a, ctx);
    admit::AdmitReport report;
    report.admission = &state->admission;
    json doc = admit::AdmitReportJson(report, /*with_tests=*/false);
    json rank = admit::RankingJson(admit::RankOps(state->admission, a.value("steps", 10)));
    ToolAnswer answer;
    for (const char* k : {"capabilities", "device", "counts", "coverage", "notes"})
      answer.body[k] = std::move(doc[k]);
    answer.body["unlockable"] = rank["unlockable"];
    answer.body["steps"] = std::move(rank["steps"]);
    AttachAdmission(*state, ctx, answer);
    answer.SetList("ops", std::move(rank["ops"]));
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
