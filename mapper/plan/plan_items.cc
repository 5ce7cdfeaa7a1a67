#include "mapper/plan/plan_items.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <unordered_map>

#include "mapper/plan/partition.h"
#include "mapper/plan/planner.h"

namespace testmap::plan {
namespace {

using timings::TimingLevel;

// What pytest accepts for a file or class timed only as a whole: the path
// its known tests use, else the test-times key as a path ("test_nn" ->
// "test_nn.py", relative to PyTorch's test/ folder like the key).
std::string PytestPath(const PlanTest& t, const KnownTests& known) {
  std::string path = known.PathOf(t.file);
  if (path.empty()) path = t.file + ".py";
  return t.level == TimingLevel::kClass ? path + "::" + t.cls : path;
}

// The label nodeids prints for `t` at the chosen granularity. Timings
// coarser than the granularity stay as they are (a file known only as a
// whole cannot be listed test by test).
std::string UnitLabel(const PlanTest& t, const PlanOptions& opt, const KnownTests& known) {
  const Granularity g = opt.granularity;
  const bool whole = t.level == TimingLevel::kFile || t.level == TimingLevel::kClass;
  if (whole && !opt.equal_pieces) return PytestPath(t, known);
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

// Cuts an item timed only as a whole into `pieces` runs of consecutive
// known ids (consecutive, so a class's tests share its setup), each holding
// its share of the time; the ids are all we know, so they weigh the same.
std::vector<PlanItem> CutByIds(const PlanItem& item, const std::vector<std::string>& ids,
                               int pieces) {
  std::vector<PlanItem> out;
  const size_t n = ids.size();
  for (int p = 0; p < pieces; ++p) {
    const size_t begin = n * p / pieces, end = n * (p + 1) / pieces;
    if (begin == end) continue;
    PlanItem chunk = item;
    chunk.labels.assign(ids.begin() + begin, ids.begin() + end);
    chunk.share = static_cast<double>(end - begin) / n;
    chunk.seconds = item.seconds * chunk.share;
    chunk.estimated_seconds = item.estimated_seconds * chunk.share;
    chunk.piece = p + 1;
    chunk.pieces = pieces;
    chunk.ids_of_whole = true;
    out.push_back(std::move(chunk));
  }
  return out;
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

void BuildPlanItems(Plan& plan, const KnownTests& known) {
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
    const PlanTest& t = plan.tests[i];
    item.labels.push_back(t.level == TimingLevel::kTest ? t.id : UnitLabel(t, opt, known));
    item.file = plan.tests[i].file;
    AddTest(item, plan.tests[i], static_cast<int>(i));
  }
  for (size_t i = 0; !one_per_test && i < plan.tests.size(); ++i) {
    const PlanTest& t = plan.tests[i];
    std::string unit = UnitLabel(t, opt, known);
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
  auto may_cut = [&](const PlanItem& item) {
    return opt.cut_seconds > 0 && item.seconds > opt.cut_seconds &&
           opt.keep_together == KeepTogether::kNone;
  };
  // How many pieces cutting asks for, before any is made.
  int64_t asked = 0;
  for (const PlanItem& item : grouped) {
    if (may_cut(item)) asked += static_cast<int64_t>(std::ceil(item.seconds / opt.cut_seconds));
  }
  if (asked > kMaxCutPieces) {
    throw PlanError("--cut-seconds " + std::to_string(opt.cut_seconds) +
                    " would cut the plan into " + std::to_string(asked) +
                    " pieces, over the limit of " + std::to_string(kMaxCutPieces) +
                    "; raise --cut-seconds");
  }
  for (PlanItem& item : grouped) {
    if (item.labels.size() > 1) std::sort(item.labels.begin(), item.labels.end());
    item.labels.erase(std::unique(item.labels.begin(), item.labels.end()), item.labels.end());
    if (!may_cut(item)) {
      plan.items.push_back(std::move(item));
      continue;
    }
    const int64_t want = static_cast<int64_t>(std::ceil(item.seconds / opt.cut_seconds));
    if (item.tests.size() > 1) {
      const int pieces = static_cast<int>(std::min<int64_t>(want, item.tests.size()));
      for (PlanItem& chunk : CutByTest(item, plan, pieces)) plan.items.push_back(std::move(chunk));
      continue;
    }
    const PlanTest& whole = plan.tests[item.tests[0]];
    if (whole.level == TimingLevel::kTest) {
      plan.items.push_back(std::move(item));  // one test: cannot be cut
      continue;
    }
    if (opt.equal_pieces && whole.level == TimingLevel::kFile) {
      // A file known only as a whole: equal pieces, as PyTorch's sharding
      // runs them (pytest-shard's --shard-id/--num-shards).
      const int pieces = static_cast<int>(want);
      for (int p = 1; p <= pieces; ++p) {
        PlanItem piece = item;
        piece.labels = {item.labels[0] + "#" + std::to_string(p) + "/" + std::to_string(pieces)};
        piece.seconds = item.seconds / pieces;
        piece.estimated_seconds = item.estimated_seconds / pieces;
        piece.share = 1.0 / pieces;
        piece.piece = p;
        piece.pieces = pieces;
        plan.items.push_back(std::move(piece));
      }
      continue;
    }
    std::vector<std::string> ids =
        known.Of(whole.file, whole.level == TimingLevel::kClass ? whole.cls : "");
    if (!opt.equal_pieces && ids.size() > 1) {
      const int pieces = static_cast<int>(std::min<int64_t>(want, ids.size()));
      for (PlanItem& chunk : CutByIds(item, ids, pieces)) plan.items.push_back(std::move(chunk));
      continue;
    }
    if (!opt.equal_pieces) {
      plan.notes.push_back(item.labels[0] + " (" + std::to_string(static_cast<int>(item.seconds)) +
                           " s) is timed only as a whole and none of its test ids is known "
                           "(test-level timings, --collected or --index): kept whole, since "
                           "pytest cannot run a piece of it");
    }
    plan.items.push_back(std::move(item));
  }
  auto canonical = [](const PlanItem& a, const PlanItem& b) {
    if (a.group != b.group) return a.group < b.group;
    if (a.labels.front() != b.labels.front()) return a.labels.front() < b.labels.front();
    return a.labels < b.labels;
  };
  // One item per test, tests sorted by id: usually in order already.
  if (!std::is_sorted(plan.items.begin(), plan.items.end(), canonical))
    std::sort(plan.items.begin(), plan.items.end(), canonical);
}

}  // namespace testmap::plan
