#include "mapper/report/page_data.h"

#include <cmath>
#include <map>

#include "mapper/report/compact_codes.h"

namespace testmap::report {
namespace {

using nlohmann::json;

json TestsJson(const ReportData& d) {
  std::vector<std::string> outcomes;
  std::map<std::string, size_t> outcome_ids;
  std::string outcome_code, ms_code;
  for (const indexer::TestSummary& s : d.summaries) {
    uint64_t id = 0;
    if (!s.outcome.empty()) {
      auto [it, added] = outcome_ids.try_emplace(s.outcome, outcomes.size());
      if (added) outcomes.push_back(s.outcome);
      id = it->second + 1;
    }
    AppendVarint(id, outcome_code);
    AppendVarint(s.duration ? static_cast<uint64_t>(std::llround(*s.duration * 1000)) + 1 : 0,
                 ms_code);
  }
  return {{"count", d.coverage.tests.size()},
          {"ids", FrontCode(d.coverage.tests)},
          {"outcomes", outcomes},
          {"outcome", outcome_code},
          {"ms", ms_code}};
}

json CoverageJson(const CoverageMatrix& m) {
  // Distinct facet masks, numbered: most cells use one or two.
  std::map<uint32_t, size_t> set_ids;
  std::vector<uint32_t> sets;
  json rows = json::array();
  for (const CoverageRow& row : m.rows) {
    json cells = json::array();
    for (const CoverageCell& cell : row.cells) {
      std::string code;
      int64_t previous = -1;
      for (const CellEntry& e : cell.entries) {
        auto [it, added] = set_ids.try_emplace(e.facet_mask, sets.size());
        if (added) sets.push_back(e.facet_mask);
        AppendVarint(static_cast<uint64_t>(e.test - previous - 1), code);
        AppendVarint(it->second, code);
        previous = e.test;
      }
      cells.push_back({cell.dtype, cell.entries.size(), std::move(code)});
    }
    rows.push_back({{"op", row.op}, {"cells", std::move(cells)}});
  }
  json facets = json::array();
  for (const Facet& f : m.facets) facets.push_back({f.evidence, f.role});
  return {{"tests", m.tests.size()},
          {"dtypes", m.dtypes},
          {"facets", facets},
          {"facet_sets", sets},
          {"rows", std::move(rows)}};
}

json PlanJson(const PlanView& p) {
  json splits = json::array();
  for (const PlanViewSplit& s : p.splits) {
    json items = json::array();
    for (const PlanViewItem& i : s.items) {
      items.push_back({{"label", i.label},
                       {"labels", i.labels},
                       {"seconds", i.seconds},
                       {"estimated_seconds", i.estimated_seconds},
                       {"tests", i.tests}});
    }
    json j = {{"split", s.split},
              {"group", s.group},
              {"predicted_seconds", s.predicted_seconds},
              {"item_seconds", s.item_seconds},
              {"estimated_seconds", s.estimated_seconds},
              {"process_seconds", s.process_seconds},
              {"tests", s.tests},
              {"estimated_tests", s.estimated_tests},
              {"items", std::move(items)},
              {"rest_items", s.rest_items},
              {"rest_seconds", s.rest_seconds},
              {"rest_estimated_seconds", s.rest_estimated_seconds}};
    if (s.measured_seconds) {
      j["measured_seconds"] = *s.measured_seconds;
      j["planned_test_seconds"] = *s.planned_test_seconds;
      j["measured_tests"] = s.measured_tests;
      j["session_predicted_seconds"] = *s.session_predicted_seconds;
      if (s.measured_wall_seconds) {
        j["measured_wall_seconds"] = *s.measured_wall_seconds;
        j["processes"] = s.processes;
      }
    }
    splits.push_back(std::move(j));
  }
  json j = {{"source", p.source},
            {"report_source", p.report_source},
            {"split_count", p.split_count},
            {"procs", p.procs},
            {"granularity", p.granularity},
            {"method", p.method},
            {"tests", p.tests},
            {"items", p.items},
            {"total_seconds", p.total_seconds},
            {"estimated_seconds", p.estimated_seconds},
            {"estimated_tests", p.estimated_tests},
            {"makespan_seconds", p.makespan_seconds},
            {"lower_bound_seconds", p.lower_bound_seconds},
            {"limit_seconds", p.limit_seconds},
            {"notes", p.notes},
            {"unplanned_tests", p.unplanned_tests},
            {"splits", std::move(splits)}};
  if (p.report_measured_seconds) {
    j["report_planned_seconds"] = *p.report_planned_seconds;
    j["report_measured_seconds"] = *p.report_measured_seconds;
    j["report_startup_seconds"] = *p.report_startup_seconds;
  }
  return j;
}

json AdmissionJson(const AdmissionView& a) {
  json ops = json::array();
  for (const AdmissionOp& o : a.ops) {
    ops.push_back({{"op", o.op},
                   {"route", o.route},
                   {"source", o.source},
                   {"composite_explicit", o.composite_explicit},
                   {"blocks", o.blocks},
                   {"tests", o.tests}});
  }
  return {{"backend", a.backend},
          {"dispatch_key", a.dispatch_key},
          {"origin", a.origin},
          {"device", a.device},
          {"counts",
           {{"tests", a.tests},
            {"admitted", a.admitted},
            {"blocked", a.blocked},
            {"unknown", a.unknown}}},
          {"notes", a.notes},
          {"ops", std::move(ops)},
          {"unavailable", a.unavailable.empty() ? json(nullptr) : json(a.unavailable)},
          {"backends", a.backends}};
}

}  // namespace

nlohmann::json PageData(const ReportData& d) {
  json runs = json::array();
  for (const RunSummary& r : d.runs) {
    runs.push_back(
        {{"id", r.id}, {"record", r.record}, {"outcomes", r.outcomes}, {"seconds", r.seconds}});
  }
  return {{"format", "testmap-report"},
          {"version", 1},
          {"index", {{"dir", d.index_dir}, {"tests", d.index_tests}}},
          {"tests", TestsJson(d)},
          {"coverage", CoverageJson(d.coverage)},
          {"runs", std::move(runs)},
          {"plan", d.plan ? PlanJson(*d.plan) : json(nullptr)},
          {"admission", AdmissionJson(d.admission)}};
}

}  // namespace testmap::report
