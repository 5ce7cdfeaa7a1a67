#include "mapper/plan/report.h"

#include <cstdio>
#include <unordered_map>
#include <unordered_set>

namespace testmap::plan {

PlanReport ComparePlanWithRun(const Plan& plan,
                              const std::vector<timings::TimingSummary>& measured) {
  std::unordered_map<std::string, double> by_id;
  std::unordered_map<std::string, double> by_file;
  for (const auto& m : measured) {
    if (m.timed_runs == 0) continue;
    by_id[m.id] += m.seconds;
    by_file[m.file] += m.seconds;
  }
  std::unordered_set<std::string> used_ids, used_files;
  PlanReport report;
  for (const PlannedSplit& s : plan.splits) {
    SplitReport r;
    r.split = s.index;
    r.group = s.group;
    for (int i : s.items) {
      const PlanItem& item = plan.items[i];
      const double share = item.pieces ? 1.0 / item.pieces : 1.0;
      for (int t : item.tests) {
        const PlanTest& test = plan.tests[t];
        ++r.tests;
        if (auto it = by_id.find(test.id); it != by_id.end()) {
          r.measured_seconds += it->second * share;
          ++r.measured_tests;
          used_ids.insert(test.id);
        } else if (test.level == timings::TimingLevel::kFile) {
          if (auto f = by_file.find(test.file); f != by_file.end()) {
            r.measured_seconds += f->second * share;
            ++r.measured_tests;
            used_files.insert(test.file);
          }
        }
      }
      r.planned_seconds += item.seconds;
    }
    report.planned_seconds += r.planned_seconds;
    report.measured_seconds += r.measured_seconds;
    report.splits.push_back(r);
  }
  for (const auto& m : measured) {
    if (m.timed_runs > 0 && !used_ids.count(m.id) && !used_files.count(m.file))
      ++report.unplanned_tests;
  }
  return report;
}

void RenderReportTable(const PlanReport& report, std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-6s %12s %12s %8s %10s\n", "split", "planned_s", "measured_s",
                "ratio", "timed");
  out << line;
  for (const SplitReport& r : report.splits) {
    std::snprintf(line, sizeof line, "%-6d %12.1f %12.1f %8.3f %5d/%-5d\n", r.split,
                  r.planned_seconds, r.measured_seconds,
                  r.planned_seconds > 0 ? r.measured_seconds / r.planned_seconds : 0.0,
                  r.measured_tests, r.tests);
    out << line;
  }
  std::snprintf(
      line, sizeof line, "total  %12.1f %12.1f %8.3f\n", report.planned_seconds,
      report.measured_seconds,
      report.planned_seconds > 0 ? report.measured_seconds / report.planned_seconds : 0.0);
  out << line;
  if (report.unplanned_tests) {
    out << "note: " << report.unplanned_tests << " measured tests are in no split of the plan\n";
  }
}

nlohmann::json ReportToJson(const PlanReport& report) {
  nlohmann::json splits = nlohmann::json::array();
  for (const SplitReport& r : report.splits) {
    splits.push_back({{"split", r.split},
                      {"group", r.group},
                      {"planned_seconds", r.planned_seconds},
                      {"measured_seconds", r.measured_seconds},
                      {"tests", r.tests},
                      {"measured_tests", r.measured_tests}});
  }
  return {{"splits", splits},
          {"planned_seconds", report.planned_seconds},
          {"measured_seconds", report.measured_seconds},
          {"unplanned_tests", report.unplanned_tests}};
}

}  // namespace testmap::plan
