// `testmap stats`: what an index holds: tests (generic, traced), operators,
// edges by evidence, outcomes, and the runs (with torch version and time)
// the evidence came from.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "indexer/index_store.h"

namespace testmap::indexer {

// The stats document (its keys: index, tests, generic_tests, traced_tests,
// evidence {scanned, with_evidence, share: scanned tests with a trace},
// operators, edges, edges_by_evidence, outcomes, runs, bytes).
nlohmann::json ReadIndexStats(const IndexStore& store);

// The same for the index in `dir`, opened the cheapest way: the counters and
// `runs` only, unless the index keeps no counters and must be walked.
nlohmann::json ReadIndexStats(const std::string& dir);

}  // namespace testmap::indexer
