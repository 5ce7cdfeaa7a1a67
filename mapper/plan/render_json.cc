#include "mapper/plan/render.h"

namespace testmap::plan {
namespace {

nlohmann::json ItemToJson(const Plan& plan, const PlanItem& item) {
  nlohmann::json j = {{"labels", item.labels},
                      {"seconds", item.seconds},
                      {"estimated_seconds", item.estimated_seconds},
                      {"tests", item.tests.size()}};
  if (item.pieces) j["piece"] = {{"index", item.piece}, {"of", item.pieces}};
  if (item.estimated_tests) {
    nlohmann::json estimates = nlohmann::json::array();
    for (int t : item.tests) {
      const PlanTest& test = plan.tests[t];
      if (!test.estimate.empty()) {
        estimates.push_back(
            {{"id", test.id}, {"seconds", test.seconds}, {"source", test.estimate}});
      }
    }
    j["estimates"] = std::move(estimates);
  }
  return j;
}

nlohmann::json SplitToJson(const Plan& plan, const PlannedSplit& s) {
  nlohmann::json items = nlohmann::json::array();
  for (int i : s.items) items.push_back(ItemToJson(plan, plan.items[i]));
  return {{"split", s.index},
          {"group", s.group},
          {"predicted_seconds", s.seconds},
          {"process_seconds", s.proc_seconds},
          {"item_seconds", s.item_seconds},
          {"estimated_seconds", s.estimated_seconds},
          {"estimated_tests", s.estimated_tests},
          {"tests", s.tests},
          {"items", std::move(items)}};
}

}  // namespace

nlohmann::json PlanToJson(const Plan& plan, int split) {
  nlohmann::json splits = nlohmann::json::array();
  for (const PlannedSplit& s : plan.splits) {
    if (!split || s.index == split) splits.push_back(SplitToJson(plan, s));
  }
  const PlanOptions& o = plan.options;
  return {{"splits", plan.splits.size()},
          {"options",
           {{"granularity", GranularityName(o.granularity)},
            {"keep_together", KeepTogetherName(o.keep_together)},
            {"group_by_feature", o.group_by_feature},
            {"procs", o.procs},
            {"file_overhead", o.file_overhead},
            {"test_overhead", o.test_overhead},
            {"collected_overhead", o.collected_overhead},
            {"process_overhead", o.process_overhead},
            {"startup_seconds", o.startup_seconds},
            {"fixed_costs_source", plan.overhead_source.empty() ? "given" : plan.overhead_source},
            {"equal_pieces", o.equal_pieces},
            {"cut_seconds", o.cut_seconds},
            {"max_minutes", o.max_minutes},
            {"margin", o.margin}}},
          {"tests", plan.tests.size()},
          {"items", plan.items.size()},
          {"total_seconds", plan.total_seconds},
          {"estimated_seconds", plan.estimated_seconds},
          {"estimated_tests", plan.estimated_tests},
          {"makespan_seconds", plan.makespan},
          {"lower_bound_seconds", plan.lower_bound},
          {"ratio_to_lower_bound", plan.lower_bound > 0 ? plan.makespan / plan.lower_bound : 1.0},
          {"limit_seconds", plan.limit_seconds},
          {"method", plan.method},
          {"notes", plan.notes},
          {"plan", std::move(splits)}};
}

void RenderJsonl(const Plan& plan, int split, std::ostream& out) {
  for (const PlannedSplit& s : plan.splits) {
    if (split && s.index != split) continue;
    for (int i : s.items) {
      const PlanItem& item = plan.items[i];
      for (const std::string& label : item.labels) {
        nlohmann::json j = {{"split", s.index},
                            {"group", s.group},
                            {"label", label},
                            {"item_seconds", item.seconds},
                            {"estimated", item.estimated_tests > 0}};
        out << j.dump() << "\n";
      }
    }
  }
}

void RenderGhaMatrix(const Plan& plan, std::ostream& out) {
  nlohmann::json include = nlohmann::json::array();
  for (const PlannedSplit& s : plan.splits) {
    include.push_back({{"split", s.index},
                       {"splits", plan.splits.size()},
                       {"group", s.group},
                       {"predicted_seconds", static_cast<int>(s.seconds + 0.5)},
                       {"name", (s.group.empty() ? "" : s.group + " ") + std::to_string(s.index) +
                                    "/" + std::to_string(plan.splits.size())}});
  }
  out << nlohmann::json{{"include", include}}.dump() << "\n";
}

}  // namespace testmap::plan
