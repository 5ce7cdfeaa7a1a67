// `testmap show`: everything the index knows about one test (node id) or
// one generic test (all its instantiations), as one JSON document an agent
// can read without further questions: source location, params, decorators,
// ops with their observations, outcomes (latest first) and the runs they
// came from.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "indexer/index_reader.h"

namespace testmap::query {

// Throws core::UnknownNameError("test") when the index has neither a test
// nor a generic test of that id.
nlohmann::json TestDocument(const indexer::IndexReader& index, const std::string& test);

}  // namespace testmap::query
