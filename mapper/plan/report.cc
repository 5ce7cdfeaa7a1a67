#include "mapper/plan/report.h"

#include <algorithm>
#include <cstdio>
#include <unordered_map>
#include <unordered_set>

#include "core/node_id.h"
#include "mapper/plan/known_tests.h"
#include "mapper/plan/plan_request.h"

namespace testmap::plan {

PlanReport ComparePlanWithRun(const Plan& plan, const std::vector<timings::TimingSummary>& measured,
                              const timings::TimingInput& run) {
  std::unordered_map<std::string, double> by_id;
  std::unordered_map<std::string, double> by_file;  // under every spelling of the file
  for (const auto& m : measured) {
    if (m.timed_runs == 0) continue;
    by_id[m.id] += m.seconds;
    for (const std::string& key : core::FileKeyAliases(m.file)) by_file[key] += m.seconds;
  }
  std::unordered_set<std::string> used_ids, used_files;
  std::unordered_map<std::string, int> split_of_id, split_of_file;
  PlanReport report;
  report.startup_seconds = plan.options.startup_seconds;
  for (const PlannedSplit& s : plan.splits) {
    SplitReport r;
    r.split = s.index;
    r.group = s.group;
    // The plan's time less what it adds outside the session (each split runs
    // its processes side by side, so once).
    r.predicted_seconds =
        s.items.empty() ? 0 : std::max(0.0, s.seconds - plan.options.startup_seconds);
    for (int i : s.items) {
      const PlanItem& item = plan.items[i];
      r.planned_seconds += item.seconds;
      if (item.ids_of_whole) {
        // A chunk of real ids cut out of a whole-file timing.
        r.tests += static_cast<int>(item.labels.size());
        for (const std::string& id : item.labels) {
          split_of_id[id] = s.index;
          if (auto it = by_id.find(id); it != by_id.end()) {
            r.measured_seconds += it->second;
            ++r.measured_tests;
            used_ids.insert(id);
          }
        }
        continue;
      }
      for (int t : item.tests) {
        const PlanTest& test = plan.tests[t];
        ++r.tests;
        split_of_id[test.id] = s.index;
        if (auto it = by_id.find(test.id); it != by_id.end()) {
          r.measured_seconds += it->second * item.share;
          ++r.measured_tests;
          used_ids.insert(test.id);
        } else if (test.level == timings::TimingLevel::kFile) {
          split_of_file[test.file] = s.index;
          if (auto f = by_file.find(test.file); f != by_file.end()) {
            r.measured_seconds += f->second * item.share;
            ++r.measured_tests;
            used_files.insert(test.file);
          }
        }
      }
    }
    report.planned_seconds += r.planned_seconds;
    report.measured_seconds += r.measured_seconds;
    report.splits.push_back(r);
  }
  for (const auto& m : measured) {
    if (m.timed_runs == 0 || used_ids.count(m.id)) continue;
    bool in_file = false;
    for (const std::string& key : core::FileKeyAliases(m.file))
      in_file = in_file || used_files.count(key);
    if (!in_file) ++report.unplanned_tests;
  }
  // Each process to the split most of its tests were planned in.
  std::vector<std::vector<double>> walls(report.splits.size());
  for (const timings::ProcessWall& w : run.walls) {
    std::unordered_map<int, int> votes;
    for (size_t k = w.first_record; k < w.end_record && k < run.records.size(); ++k) {
      const timings::TimingRecord& rec = run.records[k];
      if (auto it = split_of_id.find(rec.id); it != split_of_id.end()) {
        ++votes[it->second];
        continue;
      }
      for (const std::string& key : core::FileKeyAliases(rec.file)) {
        if (auto f = split_of_file.find(key); f != split_of_file.end()) {
          ++votes[f->second];
          break;
        }
      }
    }
    int best = 0, best_votes = 0;
    for (const auto& [split, n] : votes) {
      if (n > best_votes || (n == best_votes && split < best)) best = split, best_votes = n;
    }
    if (best > 0) walls[best - 1].push_back(w.wall_seconds);
  }
  for (size_t k = 0; k < walls.size(); ++k) {
    if (walls[k].empty()) continue;
    SplitReport& r = report.splits[k];
    r.processes = static_cast<int>(walls[k].size());
    // Processes of one split run side by side; several under one process
    // per split ran one after the other.
    r.measured_wall_seconds = 0;
    for (double w : walls[k]) {
      r.measured_wall_seconds = plan.options.procs > 1 ? std::max(r.measured_wall_seconds, w)
                                                       : r.measured_wall_seconds + w;
    }
  }
  return report;
}

double SplitReport::ErrorPercent() const {
  return measured_wall_seconds > 0
             ? (measured_wall_seconds - predicted_seconds) / measured_wall_seconds * 100
             : 0;
}

void RenderReportTable(const PlanReport& report, std::ostream& out) {
  char line[256];
  std::snprintf(line, sizeof line, "%-6s %12s %12s %8s %12s %12s %8s %11s\n", "split", "planned_s",
                "measured_s", "ratio", "predicted_s", "session_s", "error", "timed");
  out << line;
  for (const SplitReport& r : report.splits) {
    char wall[64] = "           -        -";
    if (r.measured_wall_seconds >= 0) {
      std::snprintf(wall, sizeof wall, "%12.1f %+7.1f%%", r.measured_wall_seconds,
                    r.ErrorPercent());
    }
    std::snprintf(line, sizeof line, "%-6d %12.1f %12.1f %8.3f %12.1f %s %5d/%-5d\n", r.split,
                  r.planned_seconds, r.measured_seconds,
                  r.planned_seconds > 0 ? r.measured_seconds / r.planned_seconds : 0.0,
                  r.predicted_seconds, wall, r.measured_tests, r.tests);
    out << line;
  }
  std::snprintf(
      line, sizeof line, "total  %12.1f %12.1f %8.3f\n", report.planned_seconds,
      report.measured_seconds,
      report.planned_seconds > 0 ? report.measured_seconds / report.planned_seconds : 0.0);
  out << line;
  out << "planned_s/measured_s: the tests' own seconds; predicted_s/session_s: pytest sessions "
         "(JUnit <testsuite time>, trace runs), fixed costs inside them included; error: "
         "(session - predicted) / session";
  if (report.startup_seconds > 0) {
    std::snprintf(line, sizeof line,
                  ".\nEach split also pays %.2f s outside its sessions (start-up, exit), in "
                  "the plan's split times but in no report",
                  report.startup_seconds);
    out << line;
  }
  out << "\n";
  if (report.unplanned_tests) {
    out << "note: " << report.unplanned_tests << " measured tests are in no split of the plan\n";
  }
}

nlohmann::json ReportToJson(const PlanReport& report) {
  nlohmann::json splits = nlohmann::json::array();
  for (const SplitReport& r : report.splits) {
    splits.push_back(
        {{"split", r.split},
         {"group", r.group},
         {"planned_seconds", r.planned_seconds},
         {"measured_seconds", r.measured_seconds},
         {"tests", r.tests},
         {"measured_tests", r.measured_tests},
         {"predicted_seconds", r.predicted_seconds},
         {"measured_wall_seconds", r.measured_wall_seconds >= 0
                                       ? nlohmann::json(r.measured_wall_seconds)
                                       : nlohmann::json()},
         {"processes", r.processes},
         {"error_percent",
          r.measured_wall_seconds >= 0 ? nlohmann::json(r.ErrorPercent()) : nlohmann::json()}});
  }
  return {{"splits", splits},
          {"planned_seconds", report.planned_seconds},
          {"measured_seconds", report.measured_seconds},
          {"unplanned_tests", report.unplanned_tests},
          {"startup_seconds", report.startup_seconds}};
}

}  // namespace testmap::plan
