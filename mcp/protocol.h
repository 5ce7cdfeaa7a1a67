// The MCP revisions `testmap mcp` speaks and how a request picks one.
//
// Two eras share the wire. The handshake era (2024-11-05 .. 2025-11-25):
// `initialize` negotiates a version for the connection, then
// `notifications/initialized`, `ping`. The stateless era (2026-07-28, the
// current revision, which the official SDKs probe first with
// `server/discover`): every request names its version in
// `params._meta["io.modelcontextprotocol/protocolVersion"]`, results carry
// `resultType` and cacheable ones `ttlMs`/`cacheScope`. A request is served
// in the era it is written in, so old and new clients both work.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "mcp/json_rpc.h"

namespace testmap::mcp {

inline constexpr const char* kProtocolVersionMetaKey = "io.modelcontextprotocol/protocolVersion";
inline constexpr const char* kServerInfoMetaKey = "io.modelcontextprotocol/serverInfo";

// Newest first.
const std::vector<std::string>& ModernVersions();
const std::vector<std::string>& HandshakeVersions();

// The stateless revision a request is written in, nullopt for a
// handshake-era request. Throws RpcError(kUnsupportedProtocolVersion)
// with {supported, requested} for a version this server does not speak.
std::optional<std::string> ModernVersionOf(const json& params);

// The version `initialize` answers: the client's when this server speaks
// it, else the newest handshake version (the client then decides).
std::string NegotiateHandshake(const json& params);

// What this server is and offers, for `initialize` and `server/discover`.
struct ServerIdentity {
  std::string version;  // testmap's
  bool resources = true;
};
json ServerInfo(const ServerIdentity& id);
json ServerCapabilities(const ServerIdentity& id);
std::string ServerInstructions();

// Adds the stateless era's result fields to `result` of `method`:
// resultType, and ttlMs/cacheScope where the revision makes it cacheable.
void StampModernResult(const std::string& method, json& result);

}  // namespace testmap::mcp
