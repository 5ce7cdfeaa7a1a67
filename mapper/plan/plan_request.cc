#include "mapper/plan/plan_request.h"

#include <map>
#include <sstream>

#include "core/errors.h"
#include "core/read_file.h"
#include "mapper/plan/estimator.h"
#include "mapper/plan/planner.h"
#include "mapper/plan/timing_selection.h"
#include "timings/timing_summary.h"

namespace testmap::plan {
namespace {

// Lines of `path`, '#' comments and blanks dropped; `line_numbers` gets each
// kept line's number for error messages.
std::vector<std::string> ReadLines(const std::string& path, std::vector<int>& line_numbers) {
  std::istringstream in(core::ReadInputFile(path));
  std::vector<std::string> lines;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    size_t a = line.find_first_not_of(" \t\r");
    size_t b = line.find_last_not_of(" \t\r");
    if (a == std::string::npos || line[a] == '#') continue;
    lines.push_back(line.substr(a, b - a + 1));
    line_numbers.push_back(n);
  }
  return lines;
}

}  // namespace

std::vector<std::string> ReadTestList(const std::string& path) {
  std::vector<int> numbers;
  std::vector<std::string> ids = ReadLines(path, numbers);
  std::map<std::string, int> seen;
  std::vector<std::string> out;
  for (size_t i = 0; i < ids.size(); ++i) {
    // pytest -q ends with "N tests collected in ..."; not an id.
    if (ids[i].find(' ') != std::string::npos && ids[i].find("::") == std::string::npos) continue;
    auto [it, fresh] = seen.emplace(ids[i], numbers[i]);
    if (!fresh) {
      throw core::InputError(
          path, numbers[i],
          "test " + ids[i] + " listed twice (first on line " + std::to_string(it->second) + ")");
    }
    out.push_back(ids[i]);
  }
  if (out.empty()) throw core::InputError(path, 0, "no test ids in the --tests file");
  return out;
}

std::map<std::string, std::string> ReadFeatureMap(const std::string& path) {
  std::vector<int> numbers;
  std::vector<std::string> lines = ReadLines(path, numbers);
  std::map<std::string, std::string> map;
  for (size_t i = 0; i < lines.size(); ++i) {
    size_t sep = lines[i].find_first_of(" \t=");
    size_t value = sep == std::string::npos ? sep : lines[i].find_first_not_of(" \t=", sep);
    if (value == std::string::npos) {
      throw core::InputError(path, numbers[i],
                             "expected \"path-prefix feature\", got \"" + lines[i] + "\"");
    }
    std::string prefix = lines[i].substr(0, sep);
    if (!map.emplace(prefix, lines[i].substr(value)).second) {
      throw core::InputError(path, numbers[i], "prefix " + prefix + " mapped twice");
    }
  }
  return map;
}

Plan PlanFromRecords(const std::vector<timings::TimingRecord>& records,
                     const PlanRequest& request) {
  PlanOptions options = request.options;
  if (!request.feature_map_file.empty()) {
    if (!options.group_by_feature) throw core::UsageError("--feature-map needs --group-by feature");
    options.feature_map = ReadFeatureMap(request.feature_map_file);
  }
  timings::SummaryOptions summary;
  summary.percentile = request.percentile;
  TimingSelection selection =
      SelectTimings(timings::Summarize(records, summary), request.job, request.config);
  std::vector<std::string> wanted;
  if (!request.tests_file.empty()) wanted = ReadTestList(request.tests_file);
  Plan plan = MakePlan(BuildPlanTests(selection, wanted), options);
  plan.notes.insert(plan.notes.begin(), selection.notes.begin(), selection.notes.end());
  return plan;
}

PlanReport ReportPlan(const Plan& plan, const std::vector<timings::TimingRecord>& measured,
                      double percentile) {
  timings::SummaryOptions summary;
  summary.percentile = percentile;
  return ComparePlanWithRun(plan, timings::Summarize(measured, summary));
}

}  // namespace testmap::plan
