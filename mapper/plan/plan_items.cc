#include "mapper/plan/plan_items.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "mapper/plan/partition.h"

namespace testmap::plan {
namespace {

using timings::TimingLevel;

// The label nodeids prints for `t` at the chosen granularity. Timings
// coarser than the granularity stay as they are (a file known only as a
// whole cannot be listed test by test).
std::string UnitLabel(const PlanTest& t, Granularity g) {
  if (t.level == TimingLevel::kFile) return t.id;
  if (g == Granularity::kFile) return t.path;
  // Module-level functions have no class to stand for them; listing the
  // file would run the classes too, so they stay tests.
  if (g == Granularity::kClass && t.level == TimingLevel::kTest && !t.cls.empty()) {
    return t.path + "::" + t.cls;
  }
  return t.id;
}

std::string PlacementKey(const PlanTest& t, const std::string& unit, KeepTogether keep) {
  if (keep == KeepTogether::kFile) return t.file;
  if (keep == KeepTogether::kClass && !t.cls.empty()) return t.file + "::" + t.cls;
  return unit;
}

void AddTest(PlanItem& item, const PlanTest& t, int index) {
  item.tests.push_back(index);
  item.seconds += t.seconds;
  if (!t.estimate.empty()) {
    item.estimated_seconds += t.seconds;
    ++item.estimated_tests;
  }
}

// Cuts `item` into chunks of whole tests, balanced by the same partitioner.
std::vector<PlanItem> CutByTest(const PlanItem& item, const Plan& plan, int pieces) {
  PartitionInput input;
  input.bins = pieces;
  input.step_budget = 100'000;
  for (int t : item.tests) input.weights.push_back(plan.tests[t].seconds);
  Partition part = PartitionItems(input);
  std::vector<PlanItem> chunks(pieces);
  for (size_t i = 0; i < item.tests.size(); ++i) {
    PlanItem& chunk = chunks[part.bin_of[i]];
    const PlanTest& t = plan.tests[item.tests[i]];
    chunk.labels.push_back(t.id);
    AddTest(chunk, t, item.tests[i]);
  }
  std::vector<PlanItem> out;
  for (PlanItem& chunk : chunks) {
    if (chunk.tests.empty()) continue;
    chunk.file = item.file;
    chunk.group = item.group;
    std::sort(chunk.labels.begin(), chunk.labels.end());
    out.push_back(std::move(chunk));
  }
  return out;
}

}  // namespace

std::string FeatureOf(const PlanTest& test, const PlanOptions& options) {
  if (!options.group_by_feature) return "";
  // Longest matching prefix wins; "" as a prefix is a catch-all.
  const std::string* best = nullptr;
  size_t best_len = 0;
  for (const auto& [prefix, feature] : options.feature_map) {
    if ((!best || prefix.size() > best_len) && test.id.compare(0, prefix.size(), prefix) == 0) {
      best = &feature;
      best_len = prefix.size();
    }
  }
  if (best) return *best;
  return test.feature.empty() ? "other" : test.feature;
}

void BuildPlanItems(Plan& plan) {
  const PlanOptions& opt = plan.options;
  // Hashing instead of an ordered map: 100k tests must plan in well under
  // 200 ms; the canonical order comes from the sort at the end.
  std::unordered_map<std::string, size_t> index_of;  // group + '\n' + key
  std::vector<PlanItem> grouped;
  grouped.reserve(plan.tests.size());
  // Test granularity, nothing kept together, no groups: one item per test,
  // no keys to build (ids are unique; MakePlan checked).
  const bool one_per_test = opt.granularity == Granularity::kTest &&
                            opt.keep_together == KeepTogether::kNone && !opt.group_by_feature;
  for (size_t i = 0; one_per_test && i < plan.tests.size(); ++i) {
    PlanItem& item = grouped.emplace_back();
    item.labels.push_back(plan.tests[i].id);
    item.file = plan.tests[i].file;
    AddTest(item, plan.tests[i], static_cast<int>(i));
  }
  for (size_t i = 0; !one_per_test && i < plan.tests.size(); ++i) {
    const PlanTest& t = plan.tests[i];
    std::string unit = UnitLabel(t, opt.granularity);
    std::string group = FeatureOf(t, opt);
    auto [it, fresh] =
        index_of.emplace(group + '\n' + PlacementKey(t, unit, opt.keep_together), grouped.size());
    if (fresh) grouped.emplace_back();
    PlanItem& item = grouped[it->second];
    if (item.labels.empty() || item.labels.back() != unit) item.labels.push_back(std::move(unit));
    item.file = t.file;
    item.group = std::move(group);
    AddTest(item, t, static_cast<int>(i));
  }
  plan.items.clear();
  for (PlanItem& item : grouped) {
    if (item.labels.size() > 1) std::sort(item.labels.begin(), item.labels.end());
    item.labels.erase(std::unique(item.labels.begin(), item.labels.end()), item.labels.end());
    const bool may_cut = opt.cut_seconds > 0 && item.seconds > opt.cut_seconds &&
                         opt.keep_together == KeepTogether::kNone;
    if (!may_cut) {
      plan.items.push_back(std::move(item));
      continue;
    }
    const int pieces = static_cast<int>(std::ceil(item.seconds / opt.cut_seconds));
    if (item.tests.size() > 1) {
      for (PlanItem& chunk : CutByTest(item, plan, pieces)) plan.items.push_back(std::move(chunk));
    } else if (plan.tests[item.tests[0]].level == TimingLevel::kFile) {
      // A file known only as a whole: equal pieces, as PyTorch's sharding
      // runs them (pytest-shard's --shard-id/--num-shards).
      for (int p = 1; p <= pieces; ++p) {
        PlanItem piece = item;
        piece.labels = {item.labels[0] + "#" + std::to_string(p) + "/" + std::to_string(pieces)};
        piece.seconds = item.seconds / pieces;
        piece.estimated_seconds = item.estimated_seconds / pieces;
        piece.piece = p;
        piece.pieces = pieces;
        plan.items.push_back(std::move(piece));
      }
    } else {
      plan.items.push_back(std::move(item));  // one test: cannot be cut
    }
  }
  std::sort(plan.items.begin(), plan.items.end(), [](const PlanItem& a, const PlanItem& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.labels.front() != b.labels.front()) return a.labels.front() < b.labels.front();
    return a.labels < b.labels;
  });
}

}  // namespace testmap::plan
