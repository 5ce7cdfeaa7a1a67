#include <cstdio>
#include <string>

#include "mapper/plan/render.h"

namespace testmap::plan {
namespace {

std::string Format(const char* fmt, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, fmt, value);
  return buffer;
}

std::string Duration(double seconds) {
  if (seconds < 60) return Format("%.1fs", seconds);
  int total = static_cast<int>(seconds + 0.5);
  char buffer[32];
  if (total < 3600) {
    std::snprintf(buffer, sizeof buffer, "%dm%02ds", total / 60, total % 60);
  } else {
    std::snprintf(buffer, sizeof buffer, "%dh%02dm", total / 3600, (total % 3600) / 60);
  }
  return buffer;
}

}  // namespace

void RenderTable(const Plan& plan, int split, std::ostream& out) {
  char line[256];
  bool grouped = plan.options.group_by_feature;
  std::snprintf(line, sizeof line, "%-6s %s%10s %7s %6s %10s\n", "split",
                grouped ? "group         " : "", "predicted", "items", "tests", "estimated");
  out << line;
  for (const PlannedSplit& s : plan.splits) {
    if (split && s.index != split) continue;
    std::string group = grouped ? (s.group + std::string(14, ' ')).substr(0, 14) : "";
    std::string est = s.estimated_tests ? Duration(s.estimated_seconds) + " (" +
                                              std::to_string(s.estimated_tests) + ")"
                                        : "-";
    std::snprintf(line, sizeof line, "%-6d %s%10s %7zu %6d %10s\n", s.index, group.c_str(),
                  Duration(s.seconds).c_str(), s.items.size(), s.tests, est.c_str());
    out << line;
  }
  out << "\n";
  out << plan.splits.size() << " splits, " << plan.tests.size() << " tests in " << plan.items.size()
      << " items (granularity " << GranularityName(plan.options.granularity);
  if (plan.options.keep_together != KeepTogether::kNone) {
    out << ", kept together by " << KeepTogetherName(plan.options.keep_together);
  }
  if (plan.options.procs > 1) out << ", " << plan.options.procs << " processes per split";
  out << "), total " << Duration(plan.total_seconds) << "\n";
  out << "longest split " << Duration(plan.makespan) << ", lower bound "
      << Duration(plan.lower_bound) << " (max of total/splits and the longest item), ratio "
      << Format("%.4f", plan.lower_bound > 0 ? plan.makespan / plan.lower_bound : 1.0) << " ["
      << plan.method << "]\n";
  if (plan.limit_seconds > 0) {
    out << "limit " << Duration(plan.limit_seconds) << " per split (--max-minutes "
        << Format("%g", plan.options.max_minutes) << " less "
        << Format("%g", plan.options.margin * 100) << "% margin)\n";
  }
  const PlanOptions& o = plan.options;
  if (o.process_overhead > 0 || o.file_overhead > 0 || o.test_overhead > 0 ||
      o.collected_overhead > 0 || o.startup_seconds > 0) {
    out << "fixed costs: " << Format("%.2f", o.process_overhead) << " s per process + "
        << Format("%.2f", o.file_overhead) << " s per file it runs"
        << (o.test_overhead > 0 ? " + " + Format("%.2f", o.test_overhead * 1000) + " ms per test"
                                : std::string())
        << (o.collected_overhead > 0
                ? " + " + Format("%.2f", o.collected_overhead * 1000) + " ms per test in its files"
                : std::string())
        << (o.startup_seconds > 0
                ? " + " + Format("%.2f", o.startup_seconds) + " s per process outside its session"
                : std::string())
        << " (" << (plan.overhead_source.empty() ? "given" : plan.overhead_source) << ")\n";
  }
  if (plan.estimated_tests > 0) {
    out << "estimated: " << plan.estimated_tests << " of " << plan.tests.size() << " tests, "
        << Duration(plan.estimated_seconds) << " of " << Duration(plan.total_seconds)
        << " (see --format json for each estimate's source)\n";
  }
  for (const std::string& note : plan.notes) out << "note: " << note << "\n";
  if (split) {
    out << "\nitems of split " << split << ":\n";
    for (int i : plan.splits[split - 1].items) {
      const PlanItem& item = plan.items[i];
      for (const std::string& label : item.labels) {
        out << "  "
            << Duration(item.labels.size() == 1 ? item.seconds : item.seconds / item.labels.size())
            << (item.estimated_tests ? "*" : " ") << " " << label << "\n";
      }
    }
  }
}

}  // namespace testmap::plan
