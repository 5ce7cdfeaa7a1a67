// `testmap index prune --keep-runs N`: bounds an index that CI ingests into
// every night. The N most recent trace runs stay (by their start time; a run
// without one counts as oldest); every other run goes with all it brought:
// its run record, its outcomes, its edges in both directions, and the test
// records that only traces made (origin `trace`) once nothing refers to
// them any more. Scanned tests, static evidence, timing files and backends
// stay. One atomic write: a kill leaves the index as it was or pruned.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "indexer/index_store.h"

namespace testmap::indexer {

struct PruneReport {
  size_t runs_kept = 0;
  std::vector<std::string> runs_removed;  // their ids, oldest first
  size_t outcomes_removed = 0;
  size_t edges_removed = 0;  // both directions counted
  size_t tests_removed = 0;
  size_t keys_removed = 0;
};

// Prunes `store` (opened kWrite) to its `keep_runs` most recent runs.
// With `dry_run` nothing is written; the report says what would go.
PruneReport PruneRuns(IndexStore& store, size_t keep_runs, bool dry_run = false);

}  // namespace testmap::indexer
