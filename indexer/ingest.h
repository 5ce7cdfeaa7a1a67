// Ingestion: scan output and trace shards into the index, in one atomic,
// idempotent step.
//
// Every input is read and checked before the index is opened for writing,
// so bad input changes nothing. Keys carry the run they came from (a hash
// of the shard's run record), so shards of many CI jobs or xdist workers
// merge side by side, and ingesting the same shard again rewrites the same
// keys with the same values: no change.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analyzers/backend/registration.h"
#include "indexer/index_store.h"
#include "indexer/scan_input.h"
#include "indexer/trace_input.h"
#include "timings/timing_record.h"

namespace testmap::indexer {

// The records of one timing file (JUnit XML, .test_durations,
// test-times.json) and a hash of its content, which keys them.
struct TimingInput {
  std::string source_hash;
  std::vector<timings::TimingRecord> records;
};

// A file of backend records (`testmap backend scan|dump` output).
struct BackendInput {
  std::string path;
  std::vector<backend::Registration> records;
};

struct IngestInputs {
  std::vector<BackendInput> backends;
  // The name backend records are stored under (`--backend NAME`); "" takes
  // the device of the scans ingested with them, when they name exactly one
  // device other than the CPU (`testmap scan --device privateuse1:NAME`).
  std::string backend;
  std::vector<TraceInput> traces;
  std::vector<std::vector<ScannedTest>> scans;
  std::vector<TimingInput> timings;
  std::vector<std::string> files;     // every file read, in order
  std::vector<std::string> warnings;  // what the readers read past ("FILE:LINE: ...")
};

struct IngestSummary {
  size_t files = 0;
  size_t runs = 0;
  size_t scanned_tests = 0;
  // Distinct tests with a trace record, as `testmap trace` and `stats`
  // count them (skipped tests and tests that dispatched nothing included),
  // and the records they came in (one per test and run).
  size_t traced_tests = 0;
  size_t test_records = 0;
  size_t edges = 0;         // op-test-run edges
  size_t observations = 0;  // (evidence, device, dtypes) tuples on them
  size_t timings = 0;       // records from timing files
  std::string backend;      // the backend whose records were stored ("" when none)
  size_t backend_records = 0;
  size_t keys = 0;          // keys written, both directions counted
  // Traced ids that do not join the scan's ids of the same file: pytest
  // computed another rootdir for the trace than the scan did.
  std::vector<std::string> warnings;
};

// Reads `paths`: trace shards (trace-*.jsonl), directories of them (as
// `testmap trace --out` leaves them), `testmap scan --format jsonl` files,
// timing files in any format indexer/timings reads (JUnit XML,
// .test_durations, test-times.json), and backend records. Throws
// core::InputError naming the file (and line) of anything else.
// `progress`, when set, is called after each file is read (from the reading
// threads) with the files read and their number.
//
// With `log_test` set, every path is instead a TORCH_LOGS log of that test
// (torch_logs_input.h); one without any graph is an error.
IngestInputs ReadIngestInputs(const std::vector<std::string>& paths,
                              const std::string& log_test = "",
                              const std::function<void(size_t done, size_t total)>& progress = {});

// The name the backend records of `inputs` go under: `backend`, else the
// one non-CPU device its scans name. Throws core::UsageError when neither
// says; call it before opening the index for writing.
std::string ResolveBackendName(const IngestInputs& inputs);

// Builds every key of `inputs` and commits them to `store` in one step.
// Backend records replace what the index held for that backend. Throws
// core::UsageError when records come without a name to store them under.
IngestSummary Ingest(IndexStore& store, const IngestInputs& inputs);

}  // namespace testmap::indexer
