// What a split pays besides its tests, learned from the inputs.
//
// Inside its session: every JUnit suite and trace run is a process whose
// wall time exceeds the sum of its tests by what it paid once (torch's
// import, pytest's own) and per test file it collected (the file's imports,
// building its tests). Fitting overhead = per_process + per_file x files
// over the processes gives both.
//
// Outside its session: what a process pays before pytest's session starts
// (the interpreter, pytest's and its plugins' imports) and after it ends
// (writing the report, the interpreter's exit) is in no suite's time, but
// reports hold when each session started: between processes that ran one
// after another on one host, the gap from one session's end to the next
// one's start is the first's exit plus the second's start-up, which is
// what one process pays outside its session. Its median is `startup`.
//
// Before the fit, the warm-up a process's first test paid moves into its
// process's overhead (warmup.h).
//
// Predicted splits include all three (tests/mapper/plan/fixed_costs_test.cc,
// and the real-run check in docs/plan.md).
#pragma once

#include <vector>

#include "timings/process_wall.h"

namespace testmap::plan {

struct FixedCosts {
  double per_process = 0;  // seconds each process pays once in its session
  double per_file = 0;     // seconds each process pays per distinct file it runs
  int processes = 0;       // how many observations they come from
  double startup = 0;      // seconds each process pays outside its session
  int startup_gaps = 0;    // how many gaps between processes it comes from
};

// Gaps longer than this are not a process's start-up and exit but something
// else between two runs (another CI step, another night).
inline constexpr double kMaxStartupGapSeconds = 120;

// Least squares over the processes. With one process, or processes that all
// ran the same number of files, the two cannot be told apart and everything
// is counted per process. Neither is ever negative. All zero without
// processes. `startup` is the median gap (above) between sessions of one
// host where no other session of that host was running; 0 without such a
// gap.
FixedCosts LearnFixedCosts(const std::vector<timings::ProcessWall>& walls);

}  // namespace testmap::plan
