#include "peer_splitters.h"

#include <algorithm>
#include <numeric>
#include <queue>

namespace testmap::bench {
namespace {

// pytest-split's _get_items_with_durations: missing ones get the mean.
std::vector<double> WithMeanForUnknown(const std::vector<double>& known) {
  double sum = 0;
  int count = 0;
  for (double k : known) {
    if (k >= 0) sum += k, ++count;
  }
  const double mean = count ? sum / count : 1.0;
  std::vector<double> out(known);
  for (double& d : out) {
    if (d < 0) d = mean;
  }
  return out;
}

}  // namespace

std::vector<int> PyTorchCalculateShards(const std::vector<double>& known, int splits) {
  std::vector<int> known_items, unknown_items;
  for (size_t i = 0; i < known.size(); ++i)
    (known[i] >= 0 ? known_items : unknown_items).push_back(i);
  // sorted(..., key=time, reverse=True) is stable.
  std::stable_sort(known_items.begin(), known_items.end(),
                   [&](int a, int b) { return known[a] > known[b]; });
  std::vector<double> totals(splits, 0);
  std::vector<int> out(known.size(), 0);
  for (int i : known_items) {
    int shard = static_cast<int>(std::min_element(totals.begin(), totals.end()) - totals.begin());
    out[i] = shard;
    totals[shard] += known[i];
  }
  for (size_t k = 0; k < unknown_items.size(); ++k)
    out[unknown_items[k]] = static_cast<int>(k % splits);
  return out;
}

std::vector<int> PytestSplitLeastDuration(const std::vector<double>& known, int splits) {
  std::vector<double> d = WithMeanForUnknown(known);
  std::vector<int> order(d.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return d[a] > d[b]; });
  // heapq of (duration, group index): least loaded, lowest index on ties.
  using Entry = std::pair<double, int>;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
  for (int g = 0; g < splits; ++g) heap.push({0.0, g});
  std::vector<int> out(d.size(), 0);
  for (int i : order) {
    auto [load, g] = heap.top();
    heap.pop();
    out[i] = g;
    heap.push({load + d[i], g});
  }
  return out;
}

std::vector<int> PytestSplitDurationBasedChunks(const std::vector<double>& known, int splits) {
  std::vector<double> d = WithMeanForUnknown(known);
  const double per_group = std::accumulate(d.begin(), d.end(), 0.0) / splits;
  std::vector<double> duration(splits, 0);
  std::vector<int> out(d.size(), 0);
  int group = 0;
  for (size_t i = 0; i < d.size(); ++i) {
    if (duration[group] >= per_group && group + 1 < splits) ++group;
    out[i] = group;
    duration[group] += d[i];
  }
  return out;
}

}  // namespace testmap::bench
