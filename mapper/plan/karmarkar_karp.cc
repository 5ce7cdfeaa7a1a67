// Karmarkar-Karp's largest differencing method, generalized to m bins.
// Each partial solution keeps m subsets sorted by sum; merging two pairs the
// largest subset of one with the smallest of the other, so the spreads
// cancel. Subsets are linked lists over one `next` array, making a merge
// O(m log m) regardless of how many items the subsets hold.
#include <algorithm>
#include <queue>

#include "mapper/plan/partition.h"

namespace testmap::plan {
namespace {

struct Subset {
  double sum = 0;
  int head = -1;
  int tail = -1;
};

struct Node {
  std::vector<Subset> subsets;  // descending by sum
  double Spread() const { return subsets.front().sum - subsets.back().sum; }
};

void SortSubsets(std::vector<Subset>& subsets) {
  // Ties by head keep the result independent of std::sort's internals.
  std::sort(subsets.begin(), subsets.end(), [](const Subset& a, const Subset& b) {
    return a.sum != b.sum ? a.sum > b.sum : a.head < b.head;
  });
}

}  // namespace

Partition KarmarkarKarpPartition(const PartitionInput& input) {
  const int n = static_cast<int>(input.weights.size());
  const int bins = std::max(1, input.bins);
  Partition out;
  out.method = "kk";
  out.bin_of.assign(n, 0);
  if (n == 0) {
    ComputeLoads(input, out);
    return out;
  }
  std::vector<int> next(n, -1);
  std::vector<Node> nodes;
  nodes.reserve(2 * n);
  // Max-heap on (spread, -creation order): the widest first, oldest on ties.
  using Entry = std::pair<double, int>;
  auto cmp = [](const Entry& a, const Entry& b) {
    return a.first != b.first ? a.first < b.first : a.second > b.second;
  };
  std::priority_queue<Entry, std::vector<Entry>, decltype(cmp)> heap(cmp);
  for (int i = 0; i < n; ++i) {
    Node node;
    node.subsets.assign(bins, Subset{});
    node.subsets[0] = Subset{input.weights[i], i, i};
    nodes.push_back(std::move(node));
    heap.push({nodes.back().Spread(), i});
  }
  while (heap.size() > 1) {
    int a = heap.top().second;
    heap.pop();
    int b = heap.top().second;
    heap.pop();
    Node merged;
    merged.subsets.resize(bins);
    for (int k = 0; k < bins; ++k) {
      const Subset& x = nodes[a].subsets[k];
      const Subset& y = nodes[b].subsets[bins - 1 - k];
      Subset& z = merged.subsets[k];
      z.sum = x.sum + y.sum;
      if (x.head < 0) {
        z.head = y.head;
        z.tail = y.tail;
      } else {
        z.head = x.head;
        z.tail = y.head < 0 ? x.tail : y.tail;
        if (y.head >= 0) next[x.tail] = y.head;
      }
    }
    SortSubsets(merged.subsets);
    nodes[a].subsets = {};
    nodes[b].subsets = {};
    nodes.push_back(std::move(merged));
    heap.push({nodes.back().Spread(), static_cast<int>(nodes.size()) - 1});
  }
  const Node& last = nodes[heap.top().second];
  for (int k = 0; k < bins; ++k) {
    for (int i = last.subsets[k].head; i >= 0; i = next[i]) {
      out.bin_of[i] = k;
      if (i == last.subsets[k].tail) break;
    }
  }
  PartitionInput sized = input;
  sized.bins = bins;
  ComputeLoads(sized, out);
  return out;
}

}  // namespace testmap::plan
