// Moves and swaps out of the longest bin. LPT's worst cases (and KK's) are a
// few items stuck in the wrong bins; a targeted search fixes most of them in
// a handful of steps. Each bin keeps its items sorted by weight so the best
// partner for a move or swap is a binary search away.
#include <algorithm>
#include <cstddef>
#include <numeric>
#include <string_view>
#include <unordered_map>

#include "mapper/plan/partition.h"

namespace testmap::plan {
namespace {

// Swaps are tried against this many of the least loaded bins only: the best
// partners are almost always there, and it keeps a step O(items per bin).
constexpr int kSwapPartners = 16;

class Search {
 public:
  Search(const PartitionInput& input, Partition& p)
      : in_(input), p_(p), bins_(std::max(1, input.bins)), members_(bins_), counts_(bins_) {
    overhead_ = !input.group_overheads.empty() && input.groups.size() == input.weights.size();
    for (size_t i = 0; i < input.weights.size(); ++i) {
      members_[p.bin_of[i]].push_back(static_cast<int>(i));
      if (overhead_) ++counts_[p.bin_of[i]][input.groups[i]];
    }
    for (auto& m : members_)
      std::sort(m.begin(), m.end(), [&](int a, int b) { return Less(a, b); });
  }

  bool Run() {
    bool changed = false;
    int64_t steps = 0;
    // At the lower bound nothing is left to gain; a millionth of it is below
    // any timing's precision, so stop there rather than spend the budget.
    const double bound = LowerBound(in_) * (1 + 1e-6);
    while (steps < in_.step_budget) {
      int a =
          static_cast<int>(std::max_element(p_.loads.begin(), p_.loads.end()) - p_.loads.begin());
      const double cur = p_.loads[a];
      if (cur <= bound) break;
      double best = cur - 1e-9 * std::max(1.0, cur);
      int best_b = -1, best_x = -1, best_y = -1;
      std::vector<int> others(bins_);
      std::iota(others.begin(), others.end(), 0);
      std::sort(others.begin(), others.end(), [&](int x, int y) {
        return p_.loads[x] != p_.loads[y] ? p_.loads[x] < p_.loads[y] : x < y;
      });
      int swap_partners = 0;
      for (int b : others) {
        // Without overhead a bin as long as the best cannot help; with it, a
        // swap that reunites a file's tests can shorten both.
        if (b == a || (!overhead_ && p_.loads[b] >= best)) continue;
        const double half_gap = (cur - p_.loads[b]) / 2;
        // Move: the item closest to half the gap balances the pair best.
        for (int x : Neighbours(members_[a], half_gap)) {
          ++steps;
          double val = std::max(cur - Remove(x, a), p_.loads[b] + Add(x, b));
          if (val < best) best = val, best_b = b, best_x = x, best_y = -1;
        }
        if (swap_partners++ >= kSwapPartners) continue;
        for (int x : members_[a]) {
          for (int y : Neighbours(members_[b], in_.weights[x] - half_gap)) {
            ++steps;
            auto [na, nb] = SwapLoads(a, x, b, y);
            double val = std::max(na, nb);
            if (val < best) best = val, best_b = b, best_x = x, best_y = y;
          }
        }
        if (steps >= in_.step_budget) break;
      }
      if (best_b < 0) break;
      if (best_y >= 0) {
        auto [na, nb] = SwapLoads(a, best_x, best_b, best_y);
        Transfer(best_x, a, best_b);
        Transfer(best_y, best_b, a);
        p_.loads[a] = na;
        p_.loads[best_b] = nb;
      } else {
        double na = cur - Remove(best_x, a), nb = p_.loads[best_b] + Add(best_x, best_b);
        Transfer(best_x, a, best_b);
        p_.loads[a] = na;
        p_.loads[best_b] = nb;
      }
      changed = true;
    }
    p_.makespan = *std::max_element(p_.loads.begin(), p_.loads.end());
    return changed;
  }

 private:
  bool Less(int a, int b) const {
    return in_.weights[a] != in_.weights[b] ? in_.weights[a] < in_.weights[b] : a < b;
  }

  // Up to two items on each side of `target` weight in a sorted list.
  std::vector<int> Neighbours(const std::vector<int>& sorted, double target) const {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), target,
                               [&](int i, double t) { return in_.weights[i] < t; });
    std::vector<int> out;
    for (auto j = it - std::min<std::ptrdiff_t>(2, it - sorted.begin());
         j != sorted.end() && j < it + 2; ++j) {
      out.push_back(*j);
    }
    return out;
  }

  double Overhead(int item) const { return in_.group_overheads[in_.groups[item]]; }
  int Count(int bin, int item) const {
    auto it = counts_[bin].find(in_.groups[item]);
    return it == counts_[bin].end() ? 0 : it->second;
  }
  // What taking `item` out of `bin` saves, and what adding it costs.
  double Remove(int item, int bin) const {
    return in_.weights[item] + (overhead_ && Count(bin, item) == 1 ? Overhead(item) : 0);
  }
  double Add(int item, int bin) const {
    return in_.weights[item] + (overhead_ && Count(bin, item) == 0 ? Overhead(item) : 0);
  }

  std::pair<double, double> SwapLoads(int a, int x, int b, int y) const {
    const double wx = in_.weights[x], wy = in_.weights[y];
    if (!overhead_ || in_.groups[x] == in_.groups[y]) {
      return {p_.loads[a] - wx + wy, p_.loads[b] - wy + wx};
    }
    return {p_.loads[a] - Remove(x, a) + Add(y, a), p_.loads[b] - Remove(y, b) + Add(x, b)};
  }

  void Transfer(int item, int from, int to) {
    auto& src = members_[from];
    src.erase(
        std::lower_bound(src.begin(), src.end(), item, [&](int a, int b) { return Less(a, b); }));
    auto& dst = members_[to];
    dst.insert(
        std::lower_bound(dst.begin(), dst.end(), item, [&](int a, int b) { return Less(a, b); }),
        item);
    p_.bin_of[item] = to;
    if (overhead_) {
      if (--counts_[from][in_.groups[item]] == 0) counts_[from].erase(in_.groups[item]);
      ++counts_[to][in_.groups[item]];
    }
  }

  const PartitionInput& in_;
  Partition& p_;
  int bins_;
  bool overhead_ = false;  // whether bins pay per group (partition.h)
  std::vector<std::vector<int>> members_;
  std::vector<std::unordered_map<int, int>> counts_;
};

}  // namespace

void ImproveByMovesAndSwaps(const PartitionInput& input, Partition& partition) {
  if (input.weights.empty() || input.step_budget <= 0 || std::max(1, input.bins) < 2) return;
  if (Search(input, partition).Run()) {
    partition.method = std::string_view(partition.method) == "kk" ? "kk+moves" : "lpt+moves";
    // Recompute from scratch: incremental float updates drift in the last bits.
    ComputeLoads(input, partition);
  }
}

}  // namespace testmap::plan
