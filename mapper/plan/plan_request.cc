#include "mapper/plan/plan_request.h"

#include <cstdio>
#include <map>
#include <sstream>

#include "core/errors.h"
#include "core/key_field.h"
#include "core/read_file.h"
#include "mapper/plan/estimator.h"
#include "mapper/plan/fixed_costs.h"
#include "mapper/plan/known_tests.h"
#include "mapper/plan/planner.h"
#include "mapper/plan/timing_selection.h"
#include "mapper/plan/warmup.h"
#include "timings/timing_file_reader.h"
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
    // A NUL, a control byte or bytes that are not UTF-8 are no test id (and
    // a binary file is no list of them).
    core::CheckKeyField(ids[i], "test id", path, numbers[i]);
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

Plan PlanFromRecords(timings::TimingInput input, const PlanRequest& request) {
  PlanOptions options = request.options;
  if (!request.feature_map_file.empty()) {
    if (!options.group_by_feature) throw core::UsageError("--feature-map needs --group-by feature");
    options.feature_map = ReadFeatureMap(request.feature_map_file);
  }
  std::vector<std::string> wanted;
  if (!request.tests_file.empty()) wanted = ReadTestList(request.tests_file);
  FixedCosts costs;
  Warmup warmup;
  if (request.learn_fixed_costs) {
    warmup = MoveWarmupToOverhead(input);
    std::vector<std::string> known = request.known_ids;
    known.insert(known.end(), wanted.begin(), wanted.end());
    options.collected_tests = CollectedTests(input.records, known, input.walls);
    costs = LearnFixedCosts(input.walls, input.records, options.collected_tests);
  }
  if (costs.processes > 0) {  // nothing learned leaves the options as given
    options.process_overhead = costs.per_process;
    options.file_overhead = costs.per_file;
    options.test_overhead = costs.per_test;
    options.collected_overhead = costs.per_collected;
  }
  const bool startup_given = request.startup_seconds >= 0;
  options.startup_seconds = startup_given ? request.startup_seconds : costs.startup;
  timings::SummaryOptions summary;
  summary.percentile = request.percentile;
  TimingSelection selection =
      SelectTimings(timings::Summarize(input.records, summary), request.job, request.config);
  // Known ids matter only for timings of whole files or classes.
  bool any_whole = false;
  for (const timings::TimingRecord& r : input.records)
    any_whole = any_whole || r.level != timings::TimingLevel::kTest;
  KnownTests known;
  if (!options.equal_pieces && any_whole) {
    for (const timings::TimingRecord& r : input.records) {
      if (r.level == timings::TimingLevel::kTest) known.Add(r.id);
    }
    for (const std::string& id : request.known_ids) known.Add(id);
    for (const std::string& id : wanted) known.Add(id);
  }
  Plan plan = MakePlan(BuildPlanTests(selection, wanted), options, known);
  plan.notes.insert(plan.notes.begin(), selection.notes.begin(), selection.notes.end());
  if (costs.processes > 0) {
    plan.overhead_source = "learned from " + std::to_string(costs.processes) + " process" +
                           (costs.processes == 1 ? "" : "es") + " in the reports";
    if (warmup.processes > 0) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.2f", warmup.seconds);
      plan.overhead_source += ", with " + std::string(seconds) +
                              " s of warm-up in the first test of " +
                              std::to_string(warmup.processes) + " of them";
    }
  }
  if (options.startup_seconds > 0) {
    const std::string startup =
        startup_given ? "outside the session given (--startup)"
                      : "outside the session: the median of " + std::to_string(costs.startup_gaps) +
                            " gap" + (costs.startup_gaps == 1 ? "" : "s") + " between sessions";
    plan.overhead_source += (plan.overhead_source.empty() ? "" : "; ") + startup;
  }
  return plan;
}

PlanReport ReportPlan(const Plan& plan, const timings::TimingInput& measured, double percentile) {
  timings::SummaryOptions summary;
  summary.percentile = percentile;
  return ComparePlanWithRun(plan, timings::Summarize(measured.records, summary), measured);
}

}  // namespace testmap::plan
