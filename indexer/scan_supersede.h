// What a rescan does to earlier trace evidence (docs/diff.md): a test whose
// content identities (the scan record's `content`) changed since the
// stored scan keeps its old runs' edges, but its record names those runs
// in `retired_runs`, and readers leave them out; a scanned test that a new
// scan of its file (for the same devices) no longer has is marked
// `removed`. Re-tracing only what `testmap diff --format nodeids` lists and
// ingesting it with the new scan then gives the answers of a full
// re-trace. Records written before content identities never retire
// anything (there is nothing to compare).
#pragma once

#include <string>
#include <vector>

#include "indexer/index_batch.h"
#include "indexer/index_store.h"
#include "indexer/scan_input.h"

namespace testmap::indexer {

// The key in the default column family that says some record retires runs;
// readers skip the per-test lookups while it is absent.
inline constexpr char kSupersededKey[] = "superseded";

// Puts the record of every scanned test into `batch`: its scan record,
// plus `retired_runs` (the runs the test had, and those it had retired)
// when its content changed; and `removed` records for stored scanned tests
// of the scans' files, on the scans' devices, that the scans lack. Reads
// each scanned file's stored records once. Returns whether any run was
// retired.
bool PutScannedRecords(const IndexStore& store, const std::vector<std::vector<ScannedTest>>& scans,
                       IndexBatch& batch);

}  // namespace testmap::indexer
