// Durations for every test to plan, estimating the ones without a timing.
// In order of trust:
//  1. the same item in another job or config, scaled by how fast that one
//     runs relative to this one (median ratio over the items both timed);
//     references whose per-item ratios scatter least are used first, and
//     the estimate is hedged: the largest over the best two that know the
//     item (an underestimate costs a split its whole error, an
//     overestimate only a share of slack spread over the others;
//     benchmarks/mapper/plan_perftest.cc measures the choice);
//  2. siblings: the mean of other params/dtypes of the same generic test;
//  3. the mean of tests of the same class, then of the same file;
//  4. the suite: the median of all measured items of the same level (a
//     median, because heavy-tailed suites would give every unknown item the
//     weight of the giants).
#pragma once

#include <string>
#include <vector>

#include "mapper/plan/plan_input.h"
#include "mapper/plan/timing_selection.h"

namespace testmap::plan {

struct EstimateOptions {
  // References need this many items timed in both before their ratio is
  // trusted.
  int min_common_items = 5;
  // An estimate is the largest over at most this many references that know
  // the item, the ones that track the target most closely first (2: on
  // PyTorch's real timings with 20% hidden, 1 has the best median plan but
  // a worse tail, 3 or more overestimate too often).
  int max_references = 2;
};

// The tests to plan: those of `selection.target` (a test whose runs were all
// skipped is untimed, not instant), or exactly `wanted` when non-empty
// (e.g. the admitted tests; timings of tests not wanted are then used only
// for estimates). Sorted by id. Throws core::InputError when nothing
// at all is timed.
std::vector<PlanTest> BuildPlanTests(const TimingSelection& selection,
                                     const std::vector<std::string>& wanted,
                                     const EstimateOptions& options = {});

}  // namespace testmap::plan
