// The splitters a user would otherwise use, re-implemented from their
// documented behaviour so the benchmark compares against them in one run:
//  - PyTorch's tools/testing/test_selections.py calculate_shards: known
//    times sorted descending, each to the shard with the smallest total
//    (first on ties); unknown times dealt round-robin. PyTorch's shard total
//    models two processes; here every algorithm is measured with one
//    process per split, so its total is the plain sum.
//  - pytest-split least_duration: unknown durations get the mean of the
//    known ones; sorted descending (stable), each to the least loaded group.
//  - pytest-split duration_based_chunks: items in collection order, a new
//    group begins once the current one reaches total/splits (can leave
//    groups empty).
// Each returns the split (0-based) of every item; `known[i]` < 0 means the
// item has no timing.
#pragma once

#include <vector>

namespace testmap::bench {

std::vector<int> PyTorchCalculateShards(const std::vector<double>& known, int splits);
std::vector<int> PytestSplitLeastDuration(const std::vector<double>& known, int splits);
std::vector<int> PytestSplitDurationBasedChunks(const std::vector<double>& known, int splits);

}  // namespace testmap::bench
