// What a split pays besides its tests, learned from the inputs.
//
// Inside its session: every JUnit suite and trace run is a process whose
// wall time exceeds the sum of its tests by what it paid once (torch's
// import, pytest's own) and per test file it collected: the file's imports,
// and building every one of its tests, which pytest does for the whole file
// even when it runs one of them. So a file's cost grows with its size (on
// real PyTorch files, `pytest --collect-only` of a 5-test file takes 3.3 s,
// of test_unary_ufuncs.py's 23,514 tests 9.6 s). And pytest spends time on
// each test it runs outside the test's own reported duration (its hooks,
// the report, the terminal line). Fitting
//   overhead = per_process + per_file x files + per_test x tests
//              + per_collected x collected
// over the processes, `tests` the tests it ran and `collected` the tests
// the inputs know of the files it ran, gives all four. The last two can be
// told apart only by processes that ran part of a file (a CI history's
// split runs) or by processes that ran none: a traced `pytest
// --collect-only` (its trace's collection record names the files and what
// pytest built of each). Processes that each ran whole files cannot, and
// their cost is then counted per test run (on seven real PyTorch files,
// learned from whole-file timing runs and split runs: 0.95 ms per test run,
// 0.88 ms per test collected; docs/plan.md).
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

#include <map>
#include <string>
#include <vector>

#include "timings/process_wall.h"
#include "timings/timing_record.h"

namespace testmap::plan {

struct FixedCosts {
  double per_process = 0;    // seconds each process pays once in its session
  double per_file = 0;       // seconds each process pays per distinct file it runs
  double per_test = 0;       // per test it runs, beyond the test's own duration
  double per_collected = 0;  // per test of the files it runs (pytest collects them all)
  int processes = 0;         // how many observations they come from
  double startup = 0;        // seconds each process pays outside its session
  int startup_gaps = 0;      // how many gaps between processes it comes from
};

// Gaps longer than this are not a process's start-up and exit but something
// else between two runs (another CI step, another night).
inline constexpr double kMaxStartupGapSeconds = 120;

// The tests pytest collects per file key of the records: the distinct tests
// of that file among the records' test ids and `known_ids` (a scan's or
// pytest's collection, the index's tests), joined by file identity
// (core/node_id.h), or what pytest counted when a trace run of `walls`
// collected the file (its collection record), whichever is more. Without
// either a file whose history never ran some of its tests counts fewer than
// pytest builds; a file with no test known is left out.
std::map<std::string, int> CollectedTests(const std::vector<timings::TimingRecord>& records,
                                          const std::vector<std::string>& known_ids = {},
                                          const std::vector<timings::ProcessWall>& walls = {});

// Least squares over the processes, none of the four negative: of every
// subset of the four terms, the non-negative fit with the least squared
// error; on a tie the fewer terms, then the earlier in the order above. So
// terms the processes cannot tell apart are left out (with one process, or
// all with as many files, everything is per process). All zero without
// processes. A process's files are those of its records (`records`, the
// walls' first_record..end_record) and of its collection; what each holds
// is what its collection counted, else `collected`'s. `startup`
// is the median gap (above) between sessions of one host where no other
// session of that host was running; 0 without such a gap.
FixedCosts LearnFixedCosts(const std::vector<timings::ProcessWall>& walls,
                           const std::vector<timings::TimingRecord>& records = {},
                           const std::map<std::string, int>& collected = {});

}  // namespace testmap::plan
