#include "mapper/plan/partition.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace testmap::plan {
namespace {

// Exhaustive optimum over all bins^n assignments (small n only).
double BruteForceOptimum(const std::vector<double>& w, int bins) {
  std::vector<int> assign(w.size(), 0);
  double best = 1e300;
  while (true) {
    std::vector<double> loads(bins, 0);
    for (size_t i = 0; i < w.size(); ++i) loads[assign[i]] += w[i];
    best = std::min(best, *std::max_element(loads.begin(), loads.end()));
    size_t k = 0;
    while (k < w.size() && ++assign[k] == bins) assign[k++] = 0;
    if (k == w.size()) return best;
  }
}

PartitionInput Input(std::vector<double> w, int bins) {
  PartitionInput in;
  in.weights = std::move(w);
  in.bins = bins;
  return in;
}

TEST(Partition, ClassicLptTrapIsFixed) {
  // LPT gives {3,2,2} / {3,2} = 7; the optimum is {3,3} / {2,2,2} = 6.
  auto in = Input({3, 3, 2, 2, 2}, 2);
  EXPECT_DOUBLE_EQ(LptPartition(in).makespan, 7);
  EXPECT_DOUBLE_EQ(PartitionItems(in).makespan, 6);
}

TEST(Partition, MatchesBruteForceBoundsOnRandomSmallInstances) {
  std::mt19937 rng(42);
  std::lognormal_distribution<double> heavy(0, 1.2);  // heavy-tailed like test times
  int optimal = 0, cases = 0;
  for (int bins : {2, 3, 4}) {
    for (int trial = 0; trial < 40; ++trial) {
      int n = 4 + static_cast<int>(rng() % (bins == 4 ? 5 : 7));
      std::vector<double> w(n);
      for (double& x : w) x = std::round(heavy(rng) * 100) / 10;
      auto in = Input(w, bins);
      double opt = BruteForceOptimum(w, bins);
      Partition lpt = LptPartition(in);
      Partition p = PartitionItems(in);
      ASSERT_GE(p.makespan, opt - 1e-9);
      ASSERT_LE(p.makespan, lpt.makespan + 1e-9);
      ASSERT_LE(p.makespan, (4.0 / 3 - 1.0 / (3 * bins)) * opt + 1e-9);  // Graham's LPT bound
      ASSERT_LE(LowerBound(in), opt + 1e-9);
      // Every item placed exactly once, loads consistent.
      double total = 0;
      for (double l : p.loads) total += l;
      ASSERT_NEAR(total, std::accumulate(w.begin(), w.end(), 0.0), 1e-9);
      ++cases;
      if (p.makespan <= opt + 1e-9) ++optimal;
    }
  }
  // Not a guarantee, a quality bar: LPT+KK+moves finds the optimum on most
  // small instances (measured: all but a few).
  EXPECT_GE(optimal, cases * 9 / 10) << optimal << " of " << cases;
}

TEST(Partition, KarmarkarKarpBeatsLptWithFewItemsPerBin) {
  // Karmarkar & Karp's example: {8,7,6,5,4} into 2: LPT 17, optimum 15.
  auto in = Input({8, 7, 6, 5, 4}, 2);
  EXPECT_DOUBLE_EQ(LptPartition(in).makespan, 17);
  EXPECT_DOUBLE_EQ(PartitionItems(in).makespan, 15);
}

TEST(Partition, DominantItemIsTheBound) {
  auto in = Input({100, 1, 1, 1, 1, 1, 1, 1}, 4);
  EXPECT_DOUBLE_EQ(LowerBound(in), 100);
  EXPECT_DOUBLE_EQ(PartitionItems(in).makespan, 100);
}

TEST(Partition, GroupOverheadIsPaidOncePerFileAndBin) {
  PartitionInput in = Input({5, 5, 5, 5}, 2);
  in.groups = {0, 0, 1, 1};
  in.group_overheads = {3, 3};
  Partition p = PartitionItems(in);
  // Keeping each file's two tests together: 10 + 3 per bin.
  EXPECT_DOUBLE_EQ(p.makespan, 13);
  EXPECT_DOUBLE_EQ(LowerBound(in), 13);
}

TEST(Partition, EmptyAndSingleBin) {
  EXPECT_DOUBLE_EQ(PartitionItems(Input({}, 3)).makespan, 0);
  EXPECT_DOUBLE_EQ(PartitionItems(Input({1, 2, 3}, 1)).makespan, 6);
}

}  // namespace
}  // namespace testmap::plan
