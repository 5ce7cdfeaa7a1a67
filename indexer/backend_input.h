// Backend records as the index takes them: the format is
// analyzers/backend/registration_json.h's (docs/backend.md), read through
// its one reader; this only tells such a file apart from the other inputs
// of `testmap ingest` and `admit --supported`, and reports bad records as
// input errors (file:line, exit 1).
#pragma once

#include <string>
#include <vector>

#include "analyzers/backend/registration.h"

namespace testmap::indexer {

// Whether `text` (a whole file) is backend records: a `testmap-backend/1`
// document, or JSON Lines whose first record is one.
bool LooksLikeBackendRecords(const std::string& text);

// Throws core::InputError ("path:line: message") for a bad record.
std::vector<backend::Registration> ReadBackendRecords(const std::string& text,
                                                      const std::string& path);

// "file:line (mechanism)", or the mechanism alone when no file is known.
std::string RegistrationSource(const backend::Registration& r);

}  // namespace testmap::indexer
