#include "mapper/plan/planner.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>

#include "mapper/plan/partition.h"
#include "mapper/plan/plan_items.h"

namespace testmap::plan {
namespace {

std::string Seconds(double s) {
  std::ostringstream out;
  out.precision(s < 10 ? 2 : 0);
  out << std::fixed << s << " s";
  return out.str();
}

// What every process that runs something pays once, in its session and
// outside it.
double ProcessCost(const PlanOptions& o) { return o.process_overhead + o.startup_seconds; }

// The items of one feature group, ready for the partitioner.
struct GroupWork {
  std::string name;
  std::vector<int> items;  // indexes into Plan::items
  PartitionInput input;    // bins = splits * procs
  int splits = 0;
  Partition result;
  double lower_bound = 0;
  double bound_total = 0;    // LowerBound's total (overhead included)
  double bound_longest = 0;  // and its longest item
};

// What a process pays for each file it runs (plan.h).
double FileOverhead(const PlanOptions& o, const std::string& file) {
  auto it = o.collected_tests.find(file);
  return o.file_overhead + (it == o.collected_tests.end() ? 0 : o.collected_overhead * it->second);
}

PartitionInput MakeInput(const Plan& plan, const std::vector<int>& items) {
  PartitionInput input;
  const PlanOptions& o = plan.options;
  // A test's weight includes what pytest spends on it outside its duration.
  auto weight = [&](int i) {
    return plan.items[i].seconds +
           o.test_overhead * static_cast<double>(plan.items[i].tests.size());
  };
  const bool per_file =
      o.file_overhead > 0 || (o.collected_overhead > 0 && !o.collected_tests.empty());
  std::map<std::string, int> file_ids;
  for (int i : items) {
    input.weights.push_back(weight(i));
    if (!per_file) continue;
    auto [it, added] = file_ids.emplace(plan.items[i].file, file_ids.size());
    if (added) input.group_overheads.push_back(FileOverhead(o, plan.items[i].file));
    input.groups.push_back(it->second);
  }
  input.step_budget = plan.options.step_budget;
  return input;
}

// max(total / bins, longest) for any bin count, from one pass over the
// items (LowerBound itself is O(items); AllocateSplits asks once per split).
double GroupLowerBound(const GroupWork& g, int splits, int procs) {
  return std::max(g.bound_total / (static_cast<double>(splits) * procs), g.bound_longest);
}

// Every process that runs something pays `per_process` once: the same for
// every bin, so it changes no placement, only the predicted times.
void Solve(GroupWork& g, int splits, int procs, double per_process) {
  g.splits = splits;
  g.input.bins = splits * procs;
  g.lower_bound = LowerBound(g.input) + per_process;
  g.result = PartitionItems(g.input);
  if (per_process <= 0) return;
  std::vector<bool> used(g.input.bins, false);
  for (int b : g.result.bin_of) used[b] = true;
  for (int b = 0; b < g.input.bins; ++b) {
    if (used[b]) g.result.loads[b] += per_process;
  }
  g.result.makespan = *std::max_element(g.result.loads.begin(), g.result.loads.end());
}

// --max-minutes: the fewest splits whose plan fits under `limit`.
void SolveForLimit(GroupWork& g, const Plan& plan, double limit) {
  const int procs = plan.options.procs;
  const double per_process = ProcessCost(plan.options);
  double longest = 0;
  size_t longest_at = 0;
  for (size_t k = 0; k < g.items.size(); ++k) {
    double s = g.input.weights[k] +
               (g.input.groups.empty() ? 0 : g.input.group_overheads[g.input.groups[k]]) +
               per_process;
    if (s > longest) longest = s, longest_at = k;
  }
  if (longest > limit) {
    const PlanItem& item = plan.items[g.items[longest_at]];
    throw PlanError(item.labels.front() +
                    (item.labels.size() > 1 ? " (and others kept with it)" : "") + " takes " +
                    Seconds(longest) + ", over the " + Seconds(limit) +
                    " a split may take (--max-minutes less the safety margin); allow cutting it "
                    "(--granularity test or class, no --keep-together, --cut-seconds) or raise "
                    "--max-minutes");
  }
  double total = std::accumulate(g.input.weights.begin(), g.input.weights.end(), 0.0);
  const double needed = std::ceil(total / ((limit - per_process) * procs) - 1e-9);
  if (needed > kMaxSplits) {
    throw PlanError(Seconds(total) + " of tests at most " + Seconds(limit) +
                    " a split would need over " + std::to_string(kMaxSplits) +
                    " splits (the limit); raise --max-minutes");
  }
  int splits = std::max(1, static_cast<int>(needed));
  // Each extra split helps; the search starts at the bound and rarely needs
  // more than one or two steps.
  while (true) {
    Solve(g, splits, procs, per_process);
    if (g.result.makespan <= limit || splits >= static_cast<int>(g.items.size()) ||
        splits >= kMaxSplits)
      return;
    ++splits;
  }
}

// --splits N over several groups: one each, then each further split to the
// group whose lower bound is worst, so big features get more jobs.
std::vector<int> AllocateSplits(std::vector<GroupWork>& groups, int total, int procs) {
  std::vector<int> splits(groups.size(), 1);
  for (int given = static_cast<int>(groups.size()); given < total; ++given) {
    size_t worst = 0;
    double worst_bound = -1;
    for (size_t g = 0; g < groups.size(); ++g) {
      double bound = GroupLowerBound(groups[g], splits[g], procs);
      if (bound > worst_bound) worst = g, worst_bound = bound;
    }
    ++splits[worst];
  }
  return splits;
}

void EmitSplits(Plan& plan, const GroupWork& g) {
  const int procs = plan.options.procs;
  // Bins by load, dealt so that split j holds bins j, j+N, j+2N...: every
  // split gets one of the heaviest process loads, none gets two.
  std::vector<int> bins(g.input.bins);
  std::iota(bins.begin(), bins.end(), 0);
  std::stable_sort(bins.begin(), bins.end(),
                   [&](int a, int b) { return g.result.loads[a] > g.result.loads[b]; });
  std::vector<int> split_of_bin(g.input.bins);
  for (size_t r = 0; r < bins.size(); ++r) split_of_bin[bins[r]] = static_cast<int>(r % g.splits);
  std::vector<PlannedSplit> splits(g.splits);
  for (PlannedSplit& s : splits) s.group = g.name, s.proc_seconds.assign(procs, 0.0);
  std::vector<int> proc_slot(g.input.bins);
  for (size_t r = 0; r < bins.size(); ++r) proc_slot[bins[r]] = static_cast<int>(r / g.splits);
  for (int b = 0; b < g.input.bins; ++b) {
    splits[split_of_bin[b]].proc_seconds[proc_slot[b]] = g.result.loads[b];
  }
  for (size_t k = 0; k < g.items.size(); ++k) {
    PlannedSplit& s = splits[split_of_bin[g.result.bin_of[k]]];
    const PlanItem& item = plan.items[g.items[k]];
    s.items.push_back(g.items[k]);
    s.item_seconds += item.seconds;
    s.estimated_seconds += item.estimated_seconds;
    s.estimated_tests += item.estimated_tests;
    s.tests += static_cast<int>(item.tests.size());
  }
  for (PlannedSplit& s : splits) {
    s.seconds = *std::max_element(s.proc_seconds.begin(), s.proc_seconds.end());
    std::sort(s.items.begin(), s.items.end(),
              [&](int a, int b) { return plan.items[a].labels < plan.items[b].labels; });
  }
  // Longest first; the first label breaks ties so the order never depends
  // on bin numbering.
  std::sort(splits.begin(), splits.end(), [&](const PlannedSplit& a, const PlannedSplit& b) {
    if (a.seconds != b.seconds) return a.seconds > b.seconds;
    if (a.items.empty() || b.items.empty()) return !a.items.empty() && b.items.empty();
    return plan.items[a.items[0]].labels < plan.items[b.items[0]].labels;
  });
  // Empty splits sort last: one line names their range, however many.
  int first_empty = 0, empty = 0;
  for (PlannedSplit& s : splits) {
    s.index = static_cast<int>(plan.splits.size()) + 1;
    if (s.items.empty() && empty++ == 0) first_empty = s.index;
    plan.splits.push_back(std::move(s));
  }
  if (empty > 0) {
    const std::string range = empty == 1 ? "split " + std::to_string(first_empty)
                                         : "splits " + std::to_string(first_empty) + "-" +
                                               std::to_string(first_empty + empty - 1);
    plan.notes.push_back(range + (empty == 1 ? " is" : " are") + " empty: fewer items (" +
                         std::to_string(g.items.size()) + ") than splits (" +
                         std::to_string(g.splits) + ")" +
                         (g.name.empty() ? "" : " in group " + g.name));
  }
}

}  // namespace

const char* GranularityName(Granularity g) {
  switch (g) {
    case Granularity::kTest:
      return "test";
    case Granularity::kClass:
      return "class";
    case Granularity::kFile:
      return "file";
  }
  return "?";
}

const char* KeepTogetherName(KeepTogether k) {
  switch (k) {
    case KeepTogether::kNone:
      return "none";
    case KeepTogether::kClass:
      return "class";
    case KeepTogether::kFile:
      return "file";
  }
  return "?";
}

Plan MakePlan(std::vector<PlanTest> tests, const PlanOptions& options, const KnownTests& known) {
  if (options.splits <= 0 && options.max_minutes <= 0)
    throw PlanError("give --splits N or --max-minutes M");
  if (options.splits > kMaxSplits) {
    throw PlanError("--splits " + std::to_string(options.splits) + " is over the limit of " +
                    std::to_string(kMaxSplits) + " splits");
  }
  if (options.procs < 1 || options.procs > kMaxProcs)
    throw PlanError("--procs must be between 1 and " + std::to_string(kMaxProcs));
  if (options.margin < 0 || options.margin >= 1) throw PlanError("--margin must be in [0, 1)");
  if (options.process_overhead < 0 || options.file_overhead < 0 || options.test_overhead < 0 ||
      options.collected_overhead < 0 || options.startup_seconds < 0)
    throw PlanError("fixed costs cannot be negative");
  if (tests.empty()) throw PlanError("nothing to plan: no tests");
  // Canonical order first: everything after depends only on the set.
  auto by_id = [](const PlanTest& a, const PlanTest& b) { return a.id < b.id; };
  if (!std::is_sorted(tests.begin(), tests.end(), by_id))
    std::sort(tests.begin(), tests.end(), by_id);
  for (size_t i = 1; i < tests.size(); ++i) {
    if (tests[i].id == tests[i - 1].id) throw PlanError("test listed twice: " + tests[i].id);
  }
  Plan plan;
  plan.options = options;
  plan.tests = std::move(tests);
  if (options.max_minutes > 0) {
    plan.limit_seconds = options.max_minutes * 60 * (1 - options.margin);
    // Never cut finer than needed, never leave a piece over the limit.
    if (plan.options.cut_seconds <= 0 || plan.options.cut_seconds > plan.limit_seconds) {
      plan.options.cut_seconds = plan.limit_seconds;
    }
  }
  BuildPlanItems(plan, known);

  std::vector<GroupWork> groups;
  for (size_t i = 0; i < plan.items.size(); ++i) {
    if (groups.empty() || groups.back().name != plan.items[i].group) {
      groups.emplace_back();
      groups.back().name = plan.items[i].group;
    }
    groups.back().items.push_back(static_cast<int>(i));
  }
  for (GroupWork& g : groups) {
    g.input = MakeInput(plan, g.items);
    // LowerBound with one bin is the total; with a huge count the longest.
    g.input.bins = 1;
    g.bound_total = LowerBound(g.input);
    g.input.bins = std::numeric_limits<int>::max();
    g.bound_longest = LowerBound(g.input);
  }

  if (options.max_minutes > 0) {
    for (GroupWork& g : groups) SolveForLimit(g, plan, plan.limit_seconds);
  } else {
    if (options.splits < static_cast<int>(groups.size())) {
      throw PlanError(std::to_string(groups.size()) +
                      " feature groups need at least as many splits; got " +
                      std::to_string(options.splits));
    }
    std::vector<int> splits = AllocateSplits(groups, options.splits, options.procs);
    for (size_t g = 0; g < groups.size(); ++g)
      Solve(groups[g], splits[g], options.procs, ProcessCost(options));
  }
  for (const GroupWork& g : groups) {
    EmitSplits(plan, g);
    if (g.result.makespan >= plan.makespan) {
      plan.makespan = g.result.makespan;
      plan.lower_bound = std::max(plan.lower_bound, g.lower_bound);
      plan.method = g.result.method;
    }
    plan.lower_bound = std::max(plan.lower_bound, g.lower_bound);
  }
  for (const PlanItem& item : plan.items) {
    plan.total_seconds += item.seconds;
    plan.estimated_seconds += item.estimated_seconds;
    plan.estimated_tests += item.estimated_tests;
  }
  return plan;
}

}  // namespace testmap::plan
