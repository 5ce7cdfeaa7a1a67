// The one reading of a test's outcome records (`outcomes` column family,
// NODEID \0 RUN -> {outcome, duration, start, ...}): how many runs, and the
// latest one's (by start time) outcome and duration. Internal to the read
// API (index_reader_summaries.cc, index_test_facts.cc); simdjson stays out
// of the public headers.
#pragma once

#include <simdjson.h>

#include <optional>
#include <string>
#include <string_view>

#include "indexer/index_store.h"

namespace testmap::indexer {

struct LatestOutcome {
  std::string outcome;  // "" when never run
  std::optional<double> duration;
  size_t runs = 0;
};

// Reads the records under `prefix` (NODEID \0) with `cursor`, which must be
// at or before them: it is moved past them, so a walk over many tests in
// node id order only ever seeks forward.
LatestOutcome ReadLatestOutcome(IndexCursor& cursor, std::string_view prefix,
                                simdjson::dom::parser& parser);

// Moves `cursor` forward to the first key >= `prefix` without seeking back.
void AdvanceTo(IndexCursor& cursor, std::string_view prefix);

}  // namespace testmap::indexer
