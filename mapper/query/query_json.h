// `testmap query`'s answer as JSON values, for every caller that wants the
// answer rather than its rendering (`--format json`/`jsonl`/`yaml`, the MCP
// server). The field names are the interface agents rely on: see
// docs/index.md before renaming one.
#pragma once

#include <nlohmann/json.hpp>

#include "mapper/query/query.h"

namespace testmap::query {

// One test and what it did with each matched operator.
nlohmann::json TestMatchJson(const TestMatch& match);
// One generic test with its matched instantiations and their total time.
nlohmann::json GenericMatchJson(const GenericMatch& group);
// The question as resolved (canonical operators, match, filters, group).
nlohmann::json QueryQuestionJson(const QueryResult& result);
// The whole answer, exactly what `testmap query --format json` prints:
// {query, count, tests: [...]} or, for group "generic",
// {query, count, generic_tests: [...], tests: N}.
nlohmann::json QueryResultJson(const QueryResult& result);

}  // namespace testmap::query
