// What a process warms up lazily, paid by whichever test needs it first.
//
// torch initializes much on first use (its allocator, dtype tables, a CUDA
// context, a backend's device), and the first test of a process that
// triggers it pays for it: on this machine test_type_info.py's test_finfo
// took 0.95 s as the first test of its process and 0.003 s after
// test_torch.py had warmed the process up in its collection. A plan that
// takes the 0.95 s as the test's own time charges it to whichever split
// the test lands in, and the fixed costs learned from the same processes
// miss it (docs/plan.md, "Predictions against a real run").
//
// So before the fixed costs are learned, a process's first test keeps only
// its typical time and the rest counts as the process's overhead. Typical:
// the median of the same test's runs where it was not first in its
// process; with none, the median of the other tests of its file in that
// process (at least kMinPeers of them). A first test is taken for warm-up
// when it took kMinWarmupSeconds more than its typical time and at least
// kSeenRatio times its own other runs, or, seen nowhere else, kPeerRatio
// times its file's others: one genuinely that slow, seen nowhere else, is
// misread as warm-up, and its time then counts for every process.
#pragma once

#include "timings/timing_input.h"

namespace testmap::plan {

inline constexpr double kSeenRatio = 2;
inline constexpr double kPeerRatio = 10;
inline constexpr double kMinWarmupSeconds = 0.05;
inline constexpr int kMinPeers = 3;

struct Warmup {
  int processes = 0;   // first tests found paying a warm-up
  double seconds = 0;  // moved from them to their processes' overhead
};

// Moves the warm-up of each process's first test (its first record) out of
// the record and out of its ProcessWall's test_seconds, so that the
// process's Overhead() holds it.
Warmup MoveWarmupToOverhead(timings::TimingInput& input);

}  // namespace testmap::plan
