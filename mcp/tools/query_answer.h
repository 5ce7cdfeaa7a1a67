// What query_op and tests_for_ops share: the filters' schema, the answer's
// schema and the one call into mapper/query (the library `testmap query`
// uses), so both tools answer exactly what the CLI's JSON says.
#pragma once

#include <functional>

#include "mapper/query/query.h"
#include "mcp/tool.h"

namespace testmap::mcp {

// A query tool: `operators` (schema properties naming the operators,
// `required` the one that must be given) plus the filters (dtypes, device,
// path, group); `read` puts the operators into the options, the filters
// are read here. The answer's schema is the CLI's document's.
Tool QueryTool(std::string name, std::string title, std::string description, json operators,
               const std::string& required,
               std::function<void(const json& arguments, query::QueryOptions& options)> read);
// Runs the query: the answer is `testmap query --format json`'s document,
// paged over `tests` (or `generic_tests` for group "generic"); a page's
// tests get their details when the page is made.
ToolAnswer QueryAnswer(query::QueryOptions options, ToolContext& ctx);

}  // namespace testmap::mcp
