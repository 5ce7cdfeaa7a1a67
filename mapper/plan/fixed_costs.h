// What a split pays besides its tests, learned from the inputs: every JUnit
// suite and trace run is a process whose wall time exceeds the sum of its
// tests by its start-up (torch's import, pytest's collection) and a cost
// per test file it collects. Fitting overhead = per_process + per_file x
// files over the processes gives both; predicted splits then include them
// (tests/mapper/plan/fixed_costs_test.cc, and the real-run check in
// docs/plan.md).
#pragma once

#include <vector>

#include "timings/process_wall.h"

namespace testmap::plan {

struct FixedCosts {
  double per_process = 0;        // seconds each process pays once
  double per_file = 0;           // seconds each process pays per distinct file it runs
  int processes = 0;             // how many observations they come from
  std::string Describe() const;  // "2.1 s per process + 0.35 s per file (from 4 processes)"
};

// Least squares over the processes. With one process, or processes that all
// ran the same number of files, the two cannot be told apart and everything
// is counted per process. Neither is ever negative. All zero without
// processes.
FixedCosts LearnFixedCosts(const std::vector<timings::ProcessWall>& walls);

}  // namespace testmap::plan
