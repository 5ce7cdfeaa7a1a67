// Multiway number partitioning: the numeric core of `testmap plan`.
// Items (weights) go into `bins` bins so that the largest bin total, the
// makespan, is small. Everything here is deterministic: equal inputs in
// equal order give equal output, and the improvement budget is counted in
// work steps rather than wall time, so every CI node computes the same split.
#pragma once

#include <cstdint>
#include <vector>

namespace testmap::plan {

struct PartitionInput {
  // Seconds per item. Callers put items in a canonical order (by name) first;
  // ties in weight are then broken by index.
  std::vector<double> weights;
  // Optional: the file each item belongs to (dense ids). A bin pays
  // `group_overheads[g]` once per distinct group g it holds (what pytest
  // pays per file it collects: its imports, building all of its tests).
  // Either empty means no overhead.
  std::vector<int> groups;
  std::vector<double> group_overheads;
  int bins = 1;
  // Work steps the improvement phase may spend (one step ~ one candidate move
  // or swap looked at). 0 disables improvement.
  int64_t step_budget = 4'000'000;
};

struct Partition {
  std::vector<int> bin_of;    // per item
  std::vector<double> loads;  // per bin, overhead included
  double makespan = 0;
  const char* method = "";  // "lpt", "kk", "lpt+moves", "kk+moves"
};

// max(total / bins, largest item): no partition can beat it. With groups the
// overhead of each distinct group is counted once in the total (and once for
// the largest item's group), which keeps it a valid bound.
double LowerBound(const PartitionInput& input);

// Longest processing time first: sort descending, each item to the bin with
// the smallest total (lowest index on ties).
Partition LptPartition(const PartitionInput& input);

// Karmarkar-Karp's largest differencing method for m bins: repeatedly merge
// the two partial partitions with the largest spread, pairing the largest
// subset of one with the smallest of the other. Better than LPT when there
// are few items per bin. Ignores group overhead while merging (the loads it
// returns include it). Cost O(n * bins * log): callers gate it on size.
Partition KarmarkarKarpPartition(const PartitionInput& input);

// Local search on `partition`: moves an item out of the longest bin, or swaps
// a pair between it and another bin, whenever that lowers the longer of the
// two below the current longest. Stops when the longest bin cannot be
// improved or the budget is spent.
void ImproveByMovesAndSwaps(const PartitionInput& input, Partition& partition);

// The planner's choice: LPT, plus KK when the instance is small enough, each
// improved by moves and swaps; the better (then LPT on ties) wins.
Partition PartitionItems(const PartitionInput& input);

// Recomputes loads and makespan of `bin_of` (overhead included).
void ComputeLoads(const PartitionInput& input, Partition& partition);

}  // namespace testmap::plan
