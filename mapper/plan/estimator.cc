#include "mapper/plan/estimator.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "core/errors.h"
#include "core/node_id.h"

namespace testmap::plan {
namespace {

using timings::TimingLevel;
using timings::TimingSummary;

struct Mean {
  double sum = 0;
  int count = 0;
  void Add(double v) { sum += v, ++count; }
  double Value() const { return sum / count; }
};

PlanTest FromId(const std::string& id) {
  PlanTest t;
  t.id = id;
  core::NodeId parts = core::NodeId::Parse(id);
  t.path = parts.path;
  t.file = core::FileKey(parts.path);
  t.cls = parts.cls;
  t.level = parts.name.empty() ? (parts.cls.empty() ? TimingLevel::kFile : TimingLevel::kClass)
                               : TimingLevel::kTest;
  return t;
}

// One other job/config: its timings and how it compares to the target.
struct Reference {
  std::string name;
  std::unordered_map<std::string, double> seconds;
  double ratio = 0;  // target / reference; 0 = unusable
  // How much the per-item ratios scatter (median absolute deviation of
  // their logs): a reference that tracks the target closely is trusted first.
  double scatter = 0;
};

std::vector<Reference> BuildReferences(const TimingSelection& selection,
                                       const std::unordered_map<std::string, double>& known,
                                       const EstimateOptions& options) {
  std::map<std::pair<std::string, std::string>, Reference> by_pair;
  for (const TimingSummary& s : selection.references) {
    if (s.timed_runs == 0) continue;
    Reference& r = by_pair[{s.job, s.config}];
    r.name = s.job + "/" + s.config;
    r.seconds[s.id] = s.seconds;
  }
  std::vector<Reference> out;
  for (auto& [pair, r] : by_pair) {
    std::vector<double> ratios;
    for (const auto& [id, mine] : known) {
      auto it = r.seconds.find(id);
      if (it != r.seconds.end() && it->second > 0 && mine > 0) ratios.push_back(mine / it->second);
    }
    if (static_cast<int>(ratios.size()) < options.min_common_items) continue;
    r.ratio = timings::Percentile(ratios, 50);
    std::vector<double> deviations;
    for (double x : ratios) deviations.push_back(std::abs(std::log(x / r.ratio)));
    r.scatter = timings::Percentile(std::move(deviations), 50);
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Reference& a, const Reference& b) { return a.scatter < b.scatter; });
  return out;
}

}  // namespace

std::vector<PlanTest> BuildPlanTests(const TimingSelection& selection,
                                     const std::vector<std::string>& wanted,
                                     const EstimateOptions& options) {
  // The target's tests, sorted by id (Summarize sorts by job, config, id
  // and the target is one job/config, so this is usually a no-op check).
  std::vector<PlanTest> tests;
  tests.reserve(selection.target.size());
  std::unordered_map<std::string, double> known;
  known.reserve(selection.target.size());
  for (const TimingSummary& s : selection.target) {
    PlanTest t = FromId(s.id);
    t.file = s.file;
    t.cls = s.cls;
    t.level = s.level;
    t.feature = s.feature;
    if (s.timed_runs > 0) {
      t.seconds = s.seconds;
      known.emplace(s.id, s.seconds);
    } else {
      t.estimate = "untimed";  // filled below
    }
    tests.push_back(std::move(t));
  }
  auto by_id = [](const PlanTest& a, const PlanTest& b) { return a.id < b.id; };
  if (!std::is_sorted(tests.begin(), tests.end(), by_id))
    std::sort(tests.begin(), tests.end(), by_id);
  if (!wanted.empty()) {
    std::unordered_map<std::string, size_t> index_of;
    index_of.reserve(tests.size());
    for (size_t i = 0; i < tests.size(); ++i) index_of.emplace(tests[i].id, i);
    std::vector<PlanTest> chosen;
    chosen.reserve(wanted.size());
    for (const std::string& id : wanted) {
      auto it = index_of.find(id);
      if (it != index_of.end()) {
        chosen.push_back(tests[it->second]);
      } else {
        chosen.push_back(FromId(id));
        chosen.back().estimate = "untimed";
      }
    }
    tests = std::move(chosen);
    std::sort(tests.begin(), tests.end(), by_id);
    tests.erase(std::unique(tests.begin(), tests.end(),
                            [](const PlanTest& a, const PlanTest& b) { return a.id == b.id; }),
                tests.end());
  }
  if (known.empty()) {
    throw core::InputError("no measured durations: every test is untimed or skipped");
  }
  bool any_unknown = false;
  for (const PlanTest& t : tests) any_unknown = any_unknown || !t.estimate.empty();
  if (!any_unknown) return tests;  // nothing to estimate: skip the sources
  for (PlanTest& t : tests)
    t.generic = t.level == TimingLevel::kTest ? core::GuessGenericId(t.id) : t.id;

  // Estimation sources, from the measured target timings.
  std::unordered_map<std::string, Mean> by_generic, by_class, by_file;
  std::map<TimingLevel, std::vector<double>> by_level;
  for (const TimingSummary& s : selection.target) {
    if (s.timed_runs == 0) continue;
    if (s.level == TimingLevel::kTest) by_generic[core::GuessGenericId(s.id)].Add(s.seconds);
    by_class[s.file + "::" + s.cls].Add(s.seconds);
    by_file[s.file].Add(s.seconds);
    by_level[s.level].push_back(s.seconds);
  }
  std::map<TimingLevel, double> suite;
  std::vector<double> all;
  for (auto& [level, values] : by_level) {
    all.insert(all.end(), values.begin(), values.end());
    suite[level] = timings::Percentile(values, 50);
  }
  const double suite_any = timings::Percentile(all, 50);
  const std::vector<Reference> references = BuildReferences(selection, known, options);

  for (PlanTest& t : tests) {
    if (t.estimate.empty()) continue;
    // The hedge: the largest of the closest references' scaled timings.
    // An item planned too short lengthens its split by the whole error; one
    // planned too long costs only a share of the slack, spread over the
    // other splits. So where the best references disagree (a file skipped
    // in one config runs in another), plan for the longer.
    double scaled = -1;
    int used = 0;
    std::string first_ref;
    for (const Reference& r : references) {
      if (used >= options.max_references) break;
      auto it = r.seconds.find(t.id);
      if (it == r.seconds.end()) continue;
      scaled = std::max(scaled, it->second * r.ratio);
      if (first_ref.empty()) first_ref = r.name;
      ++used;
    }
    if (used > 0) {
      t.seconds = scaled;
      t.estimate = used == 1 ? "config " + first_ref : "configs (" + std::to_string(used) + ")";
    } else if (auto g = by_generic.find(t.generic);
               t.level == TimingLevel::kTest && g != by_generic.end()) {
      t.seconds = g->second.Value();
      t.estimate = "siblings";
    } else if (auto c = by_class.find(t.file + "::" + t.cls);
               !t.cls.empty() && c != by_class.end()) {
      t.seconds = c->second.Value();
      t.estimate = "class";
    } else if (auto f = by_file.find(t.file); t.level != TimingLevel::kFile && f != by_file.end()) {
      t.seconds = f->second.Value();
      t.estimate = "file";
    } else {
      auto s = suite.find(t.level);
      t.seconds = s != suite.end() ? s->second : suite_any;
      t.estimate = "suite";
    }
  }
  return tests;
}

}  // namespace testmap::plan
