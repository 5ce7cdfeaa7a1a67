// MCP resources over the index: each trace run as `testmap://run/ID` (its
// full record: torch version and git SHA, python, OS, CPU, command, time)
// and each test as `testmap://test/NODEID` (percent-encoded; the show_test
// document). Runs are listed (paged); tests are reached through the
// template, there are tens of thousands.
#pragma once

#include "mcp/index_session.h"
#include "mcp/json_rpc.h"

namespace testmap::mcp {

// MCP's code for a resource that does not exist.
inline constexpr int kResourceNotFound = -32002;

json ListResources(IndexSession& session, const json& params);
json ListResourceTemplates();
// Throws RpcError: kResourceNotFound, or kInvalidParams for a bad uri.
json ReadResource(IndexSession& session, const json& params);

// testmap://test/NODEID, percent-encoded.
std::string TestResourceUri(const std::string& nodeid);

}  // namespace testmap::mcp
