// What query_op and tests_for_ops share: the filters' schema, the answer's
// schema and the one call into mapper/query (the library `testmap query`
// uses), so both tools answer exactly what the CLI's JSON says.
#pragma once

#include "mapper/query/query.h"
#include "mcp/tool.h"

namespace testmap::mcp {

// Schema properties of the filters (dtypes, device, path, group).
json QueryFilterProperties();
// Reads the filters of `arguments` into `options`.
void ReadQueryFilters(const json& arguments, query::QueryOptions& options);
// The answer's schema: query, count, tests (or generic_tests).
json QueryOutputSchema();
// Runs the query: the answer is `testmap query --format json`'s document,
// paged over `tests` (or `generic_tests` for group "generic"); a page's
// tests get their details when the page is made.
ToolAnswer QueryAnswer(query::QueryOptions options, ToolContext& ctx);

}  // namespace testmap::mcp
