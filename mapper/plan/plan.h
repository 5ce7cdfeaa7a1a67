// A split plan: what `testmap plan` computes and every renderer prints.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mapper/plan/plan_input.h"

namespace testmap::plan {

// Documented limits (docs/plan.md), checked before anything is allocated
// for them: a CI with more jobs than this is not one GitHub Actions (256 per
// matrix) or PyTorch (tens of shards) runs, and cutting that produces more
// pieces than this is a --cut-seconds typo, not a plan.
inline constexpr int kMaxSplits = 10'000;
inline constexpr int kMaxProcs = 256;
inline constexpr int64_t kMaxCutPieces = 1'000'000;

// The unit a plan places and lists.
enum class Granularity { kTest, kClass, kFile };
// Units that must share a split (coarser than the granularity).
enum class KeepTogether { kNone, kClass, kFile };

struct PlanOptions {
  int splits = 0;          // --splits N, or
  double max_minutes = 0;  // --max-minutes M: fewest splits under M
  double margin = 0.10;    // safety margin under max_minutes
  Granularity granularity = Granularity::kTest;
  KeepTogether keep_together = KeepTogether::kNone;
  bool group_by_feature = false;
  // Node-id prefix (a directory, a file, file.py::Class) -> feature, longest
  // prefix wins; tests without a match fall back to their JUnit "feature"
  // property, else group "other".
  std::map<std::string, std::string> feature_map;
  double file_overhead = 0;  // seconds per file per process (collection, imports)
  // Seconds per test a process runs, beyond the test's own duration.
  double test_overhead = 0;
  // Seconds per test of each file a process runs: pytest builds all of a
  // file's tests to run any of them. With `collected_tests` (file key ->
  // tests pytest collects in it), a process pays file_overhead +
  // collected_overhead x collected for each file it runs.
  double collected_overhead = 0;
  std::map<std::string, int> collected_tests;
  double process_overhead = 0;  // seconds per process in its session (torch import, pytest)
  // Seconds per process outside its pytest session (the interpreter,
  // plugins' imports, exit): no suite's time holds them. Planned like
  // process_overhead; kept apart so a report can compare session times.
  double startup_seconds = 0;
  int procs = 1;  // parallel processes per split (PyTorch uses 2)
  // Items longer than this are cut (by test when the timings know tests,
  // else into ceil(t/cut) equal pieces as PyTorch's sharding does). 0: never.
  double cut_seconds = 600;
  // Whether a long file known only as a whole may become equal pieces
  // (`test_nn#2/3`), which PyTorch's run_test.py runs with pytest-shard.
  // Off, every label is something pytest accepts: such a file is cut into
  // lists of its real test ids where those are known (KnownTests), and kept
  // whole, with a note, where not; file-level items are listed as paths.
  bool equal_pieces = true;
  int64_t step_budget = 4'000'000;  // improvement work, see partition.h
};

// One placed unit: a test, class, file, a chunk of a long file's tests, or
// an equal piece of a long file known only as a whole.
struct PlanItem {
  std::vector<std::string> labels;  // what nodeids prints, one a line
  std::vector<int> tests;           // indexes into Plan::tests
  std::string file;
  std::string group;   // feature group ("" when not grouping)
  double seconds = 0;  // including file overhead
  double estimated_seconds = 0;
  int estimated_tests = 0;
  int piece = 0, pieces = 0;  // for equal pieces and id chunks: 1-based index and count
  // The fraction of its tests' time this item holds: 1, except for a piece
  // or an id chunk of a file (or class) timed only as a whole.
  double share = 1;
  // The labels are real test ids cut out of a whole-file timing.
  bool ids_of_whole = false;
};

struct PlannedSplit {
  int index = 0;  // 1-based
  std::string group;
  std::vector<int> items;            // indexes into Plan::items, sorted by label
  double seconds = 0;                // predicted duration (max over processes)
  std::vector<double> proc_seconds;  // per process when procs > 1
  double item_seconds = 0;           // sum of its items
  double estimated_seconds = 0;
  int tests = 0;
  int estimated_tests = 0;
};

struct Plan {
  PlanOptions options;
  std::vector<PlanTest> tests;
  std::vector<PlanItem> items;
  std::vector<PlannedSplit> splits;
  double total_seconds = 0;
  double estimated_seconds = 0;
  int estimated_tests = 0;
  double makespan = 0;
  double lower_bound = 0;          // max(total / (N * procs), longest item), per group
  double limit_seconds = 0;        // with --max-minutes: the limit after margin
  std::string method;              // partition method of the worst group
  std::vector<std::string> notes;  // fallbacks and warnings for the user
  std::string overhead_source;     // where the fixed costs came from ("" = none)
};

const char* GranularityName(Granularity g);
const char* KeepTogetherName(KeepTogether k);

}  // namespace testmap::plan
