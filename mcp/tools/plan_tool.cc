// plan: `testmap plan [TIMING_FILES...] [--index DIR] ... --format json`,
// with timing files only from under --allow.
#include "core/errors.h"
#include "indexer/index_timings.h"
#include "mapper/plan/plan_request.h"
#include "mapper/plan/render.h"
#include "mcp/tools/tools.h"
#include "timings/timing_input.h"

namespace testmap::mcp {
namespace {

// Enum values by the names the plan library gives them (one spelling).
template <typename E>
E FromName(const std::string& text, std::initializer_list<E> all, const char* (*name)(E)) {
  for (E e : all) {
    if (text == name(e)) return e;
  }
  return *all.begin();  // the schema's enum admits nothing else
}

json PlanInputSchema() {
  auto number = [](double min, const char* what) {
    return json{{"type", "number"}, {"minimum", min}, {"description", what}};
  };
  json path = {{"type", "string"}, {"minLength", 1}, {"maxLength", 4096}};
  return {{"type", "object"},
          {"properties",
           {{"timing_files",
             {{"type", "array"},
              {"items", path},
              {"maxItems", 256},
              {"description",
               "JUnit XML, .test_durations, test-times.json or trace shards, under the server's "
               "--allow paths"}}},
            {"index",
             {{"type", "boolean"},
              {"default", true},
              {"description", "Also use the index's timings (outcomes of every ingested run)"}}},
            {"splits", {{"type", "integer"}, {"minimum", 1}, {"maximum", 10000}}},
            {"max_minutes", number(0.001, "Fewest splits that each finish within M minutes")},
            {"margin", {{"type", "number"}, {"minimum", 0}, {"maximum", 0.9}}},
            {"granularity", {{"enum", {"test", "class", "file"}}, {"default", "test"}}},
            {"keep_together", {{"enum", {"none", "file", "class"}}, {"default", "none"}}},
            {"group_by_feature", {{"type", "boolean"}, {"default", false}}},
            {"feature_map", path},
            {"tests_file", path},
            {"job", {{"type", "string"}, {"maxLength", 256}}},
            {"config", {{"type", "string"}, {"maxLength", 256}}},
            {"procs", {{"type", "integer"}, {"minimum", 1}, {"maximum", 256}}},
            {"file_overhead", number(0, "Seconds each file costs a split that runs it")},
            {"cut_seconds", number(0, "Cut items longer than this; 0: never")},
            {"percentile", {{"type", "number"}, {"minimum", 0}, {"maximum", 100}}},
            {"budget", {{"type", "integer"}, {"minimum", 0}, {"maximum", 1000000000}}},
            {"split",
             {{"type", "integer"}, {"minimum", 1}, {"description", "Only split K (1-based)"}}}}},
          {"additionalProperties", false}};
}

json PlanOutputSchema() {
  json item = {{"type", "object"},
               {"properties",
                {{"split", {{"type", "integer"}}},
                 {"labels", {{"type", "array"}, {"items", {{"type", "string"}}}}},
                 {"seconds", {{"type", "number"}}}}},
               {"required", {"split", "labels", "seconds"}}};
  return {
      {"type", "object"},
      {"properties",
       {{"splits", {{"type", "integer"}}},
        {"plan",
         {{"type", "array"},
          {"description", "Each split's figures; its items are in `items`"},
          {"items", {{"type", "object"}}}}},
        {"items", {{"type", "integer"}, {"description", "Items placed, over all splits"}}},
        {"split_items",
         {{"type", "array"},
          {"items", item},
          {"description", "The items of `plan`'s splits, split by split, each with its split"}}},
        {"makespan_seconds", {{"type", "number"}}},
        {"lower_bound_seconds", {{"type", "number"}}}}},
      {"required", {"splits", "plan", "split_items"}}};
}

std::vector<std::string> Paths(const json& a) {
  std::vector<std::string> paths;
  if (a.contains("timing_files")) paths = a["timing_files"].get<std::vector<std::string>>();
  for (const char* k : {"feature_map", "tests_file"}) {
    if (a.contains(k)) paths.push_back(a[k].get<std::string>());
  }
  return paths;
}

}  // namespace

Tool PlanTool() {
  Tool t;
  t.name = "plan";
  t.title = "Split tests into CI jobs that finish together";
  t.description =
      "A split plan from real timings: the index's (outcomes of every ingested trace run and "
      "ingested timing files) and/or timing files under the server's --allow paths. Give "
      "`splits` or `max_minutes`. Tests without timings are estimated and the plan says how "
      "much is. The same plan as `testmap plan --format json`; the items are paged, each with "
      "its split (`split_items`).";
  t.input_schema = PlanInputSchema();
  t.output_schema = PlanOutputSchema();
  t.paged = "split_items";
  t.expensive = true;
  t.inputs_stamp = [](const json& a, ToolContext& ctx) {
    std::string stamp;
    for (const auto& p : Paths(a)) {
      try {
        stamp += FileStamp(ctx.paths().Resolve(p)) + "\n";
      } catch (const std::exception&) {
        stamp += p + " ?\n";  // the run says why
      }
    }
    return stamp;
  };
  t.run = [](const json& a, ToolContext& ctx) {
    ToolAnswer answer;
    plan::PlanRequest request;
    plan::PlanOptions& o = request.options;
    o.splits = a.value("splits", 0);
    o.max_minutes = a.value("max_minutes", 0.0);
    if (o.splits && o.max_minutes > 0)
      throw core::UsageError("give splits or max_minutes, not both");
    o.margin = a.value("margin", o.margin);
    o.granularity =
        FromName(a.value("granularity", "test"),
                 {plan::Granularity::kTest, plan::Granularity::kClass, plan::Granularity::kFile},
                 plan::GranularityName);
    o.keep_together =
        FromName(a.value("keep_together", "none"),
                 {plan::KeepTogether::kNone, plan::KeepTogether::kFile, plan::KeepTogether::kClass},
                 plan::KeepTogetherName);
    o.group_by_feature = a.value("group_by_feature", false);
    o.procs = a.value("procs", o.procs);
    o.file_overhead = a.value("file_overhead", o.file_overhead);
    o.cut_seconds = a.value("cut_seconds", o.cut_seconds);
    o.step_budget = a.value("budget", o.step_budget);
    request.job = a.value("job", "");
    request.config = a.value("config", "");
    request.percentile = a.value("percentile", request.percentile);
    if (a.contains("tests_file")) request.tests_file = ctx.paths().Resolve(a["tests_file"]);
    if (a.contains("feature_map")) {
      request.feature_map_file = ctx.paths().Resolve(a["feature_map"]);
    }
    timings::TimingInput input;
    for (const auto& p : a.value("timing_files", std::vector<std::string>())) {
      std::string path = ctx.paths().Resolve(p);
      timings::TimingInput file = timings::ReadTimingFiles({path});
      answer.files.push_back(FileRead(path, {{"records", file.records.size()}}));
      input.Append(std::move(file));
    }
    if (a.value("index", true)) {
      const OpenIndex& index = ctx.index();
      indexer::AppendIndexTimings(index.reader().store(), input);
      answer.runs = index.AllRuns();
    }
    plan::Plan p = plan::PlanFromRecords(std::move(input), request);
    int split = a.value("split", 0);
    if (split > static_cast<int>(p.splits.size())) {
      throw core::UsageError("split " + std::to_string(split) + ": the plan has only " +
                             std::to_string(p.splits.size()) + " splits");
    }
    json doc = plan::PlanToJson(p, split);
    // Items move out of their splits into one list that pages; the rest is
    // the CLI's document as it is.
    json items = json::array();
    for (auto& s : doc["plan"]) {
      for (auto& item : s["items"]) {
        json row = {{"split", s["split"]}};
        for (auto& [k, v] : item.items()) row[k] = std::move(v);
        items.push_back(std::move(row));
      }
      s.erase("items");
    }
    answer.body = std::move(doc);
    answer.SetList("split_items", std::move(items));
    return answer;
  };
  return t;
}

}  // namespace testmap::mcp
