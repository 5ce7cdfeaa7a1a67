// LPT, the lower bound, load bookkeeping and the planner's choice between
// methods. Karmarkar-Karp and the local search live in their own files.
#include "mapper/plan/partition.h"

#include <algorithm>
#include <numeric>
#include <queue>
#include <unordered_map>
#include <unordered_set>

namespace testmap::plan {
namespace {

// Item indices by weight descending, index ascending on ties.
std::vector<int> DescendingOrder(const std::vector<double>& weights) {
  std::vector<int> order(weights.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return weights[a] != weights[b] ? weights[a] > weights[b] : a < b;
  });
  return order;
}

bool HasOverhead(const PartitionInput& input) {
  return !input.group_overheads.empty() && input.groups.size() == input.weights.size();
}

double OverheadOf(const PartitionInput& input, size_t item) {
  return input.group_overheads[input.groups[item]];
}

}  // namespace

double LowerBound(const PartitionInput& input) {
  if (input.weights.empty()) return 0;
  double total = std::accumulate(input.weights.begin(), input.weights.end(), 0.0);
  size_t longest =
      std::max_element(input.weights.begin(), input.weights.end()) - input.weights.begin();
  double largest = input.weights[longest];
  if (HasOverhead(input)) {
    std::unordered_set<int> distinct(input.groups.begin(), input.groups.end());
    for (int g : distinct) total += input.group_overheads[g];
    largest += OverheadOf(input, longest);
  }
  return std::max(total / std::max(1, input.bins), largest);
}

void ComputeLoads(const PartitionInput& input, Partition& partition) {
  partition.loads.assign(input.bins, 0.0);
  for (size_t i = 0; i < input.weights.size(); ++i)
    partition.loads[partition.bin_of[i]] += input.weights[i];
  if (HasOverhead(input)) {
    std::vector<std::unordered_set<int>> seen(input.bins);
    for (size_t i = 0; i < input.weights.size(); ++i) {
      if (seen[partition.bin_of[i]].insert(input.groups[i]).second) {
        partition.loads[partition.bin_of[i]] += OverheadOf(input, i);
      }
    }
  }
  partition.makespan = partition.loads.empty()
                           ? 0
                           : *std::max_element(partition.loads.begin(), partition.loads.end());
}

Partition LptPartition(const PartitionInput& input) {
  Partition out;
  out.method = "lpt";
  out.bin_of.assign(input.weights.size(), 0);
  const int bins = std::max(1, input.bins);
  std::vector<int> order = DescendingOrder(input.weights);
  if (!HasOverhead(input)) {
    // (load, bin) min-heap: the smallest total, lowest index on ties.
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (int b = 0; b < bins; ++b) heap.push({0.0, b});
    for (int i : order) {
      auto [load, bin] = heap.top();
      heap.pop();
      out.bin_of[i] = bin;
      heap.push({load + input.weights[i], bin});
    }
  } else {
    // With per-file overhead the cheapest bin is the one whose total after
    // adding the item is smallest (a bin already holding the file pays no
    // new overhead), so scan the bins.
    std::vector<double> loads(bins, 0.0);
    std::vector<std::unordered_set<int>> held(bins);
    for (int i : order) {
      int best = 0;
      double best_total = 0;
      for (int b = 0; b < bins; ++b) {
        double total = loads[b] + input.weights[i] +
                       (held[b].count(input.groups[i]) ? 0.0 : OverheadOf(input, i));
        if (b == 0 || total < best_total) {
          best = b;
          best_total = total;
        }
      }
      out.bin_of[i] = best;
      loads[best] = best_total;
      held[best].insert(input.groups[i]);
    }
  }
  PartitionInput sized = input;
  sized.bins = bins;
  ComputeLoads(sized, out);
  return out;
}

Partition PartitionItems(const PartitionInput& input) {
  Partition best = LptPartition(input);
  ImproveByMovesAndSwaps(input, best);
  // KK pays off with few items per bin; its memory is items x bins, so
  // keep it to instances where that is small.
  const double cells = static_cast<double>(input.weights.size()) * std::max(1, input.bins);
  if (input.bins > 1 && cells <= 1'000'000) {
    Partition kk = KarmarkarKarpPartition(input);
    ImproveByMovesAndSwaps(input, kk);
    // Relative tolerance: float sums of the same sets in another order
    // differ in the last bits; prefer LPT unless KK is really better.
    if (kk.makespan < best.makespan * (1 - 1e-12)) best = std::move(kk);
  }
  return best;
}

}  // namespace testmap::plan
