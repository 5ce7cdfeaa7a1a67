// The check every parsed input passes before ingest opens the index: each
// field that becomes part of a key (node ids, generic ids, timing ids, jobs
// and configs, backend names) or an item of an edge value (devices,
// dtypes) is one core/key_field.h accepts. A field that is not would split
// into two when the key is read back, so one bad record would break every
// later query and `index verify`; it is refused with its file and line,
// and nothing is written. Trace shards are checked by core::ReadTrace
// itself, as it reads them.
#pragma once

#include <string>
#include <vector>

#include "indexer/scan_input.h"
#include "indexer/trace_input.h"
#include "timings/timing_record.h"

namespace testmap::indexer {

// Each throws core::InputError(file, line) for the first bad field.
void CheckScanKeys(const std::vector<ScannedTest>& tests, const std::string& path);
// Node ids and operators of parsed traces and TORCH_LOGS logs (whose node
// id comes from `ingest --test`).
void CheckTraceKeys(const TraceInput& trace);
void CheckTimingKeys(const std::vector<timings::TimingRecord>& records);
// A backend name (`ingest --backend NAME`, or a scan's device); throws
// core::UsageError, since it comes from the command line or a scan that
// passed CheckScanKeys.
void CheckBackendName(const std::string& name);

}  // namespace testmap::indexer
