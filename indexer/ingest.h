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

struct IngestInputs {
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
  size_t traced_tests = 0;  // test records (one per test and run)
  size_t edges = 0;         // op-test-run edges
  size_t observations = 0;  // (evidence, device, dtypes) tuples on them
  size_t timings = 0;       // records from timing files
  size_t keys = 0;          // keys written, both directions counted
};

// Reads `paths`: trace shards (trace-*.jsonl), directories of them (as
// `testmap trace --out` leaves them), `testmap scan --format jsonl` files,
// and timing files in any format indexer/timings reads (JUnit XML,
// .test_durations, test-times.json). Throws core::InputError naming the file (and
// line) of anything else. `progress`, when set, is called after each file
// is read (from the reading threads) with the files read and their number.
IngestInputs ReadIngestInputs(const std::vector<std::string>& paths,
                              const std::function<void(size_t done, size_t total)>& progress = {});

// Builds every key of `inputs` and commits them to `store` in one step.
IngestSummary Ingest(IndexStore& store, const IngestInputs& inputs);

}  // namespace testmap::indexer
