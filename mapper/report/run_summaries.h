// The runs an index's evidence came from, as the report lists them: each
// trace run's record (its metadata: torch version and git SHA, the tests'
// git SHA, python, OS, CPU, host, command, start time) with what it ran
// (outcome counts and test seconds from the outcomes column family).
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "indexer/index_reader.h"

namespace testmap::report {

struct RunSummary {
  std::string id;                          // run id (16 hex digits)
  nlohmann::json record;                   // the run record as ingested (worker, metadata, source)
  std::map<std::string, size_t> outcomes;  // outcome -> tests
  double seconds = 0;                      // sum of the tests' durations
};

// Sorted by start time, then id. Throws core::InputError for a run record
// that is not JSON.
std::vector<RunSummary> ReadRunSummaries(const indexer::IndexReader& index);

}  // namespace testmap::report
