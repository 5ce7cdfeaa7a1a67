#include "mcp/protocol.h"

#include <algorithm>

namespace testmap::mcp {
namespace {

bool Contains(const std::vector<std::string>& list, const std::string& s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

}  // namespace

const std::vector<std::string>& ModernVersions() {
  static const std::vector<std::string> v = {"2026-07-28"};
  return v;
}

const std::vector<std::string>& HandshakeVersions() {
  static const std::vector<std::string> v = {"2025-11-25", "2025-06-18", "2025-03-26",
                                             "2024-11-05"};
  return v;
}

std::optional<std::string> ModernVersionOf(const json& params) {
  auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object()) return std::nullopt;
  auto version = meta->find(kProtocolVersionMetaKey);
  if (version == meta->end()) return std::nullopt;
  std::string requested = version->is_string() ? version->get<std::string>() : version->dump();
  if (version->is_string() && Contains(ModernVersions(), requested)) return requested;
  json supported = ModernVersions();
  for (const auto& v : HandshakeVersions()) supported.push_back(v);
  throw RpcError(kUnsupportedProtocolVersion,
                 "unsupported protocol version " + requested +
                     " in _meta: this server speaks 2026-07-28 per request, and 2024-11-05 to "
                     "2025-11-25 through initialize",
                 {{"supported", supported}, {"requested", requested}});
}

std::string NegotiateHandshake(const json& params) {
  auto v = params.find("protocolVersion");
  if (v != params.end() && v->is_string() && Contains(HandshakeVersions(), v->get<std::string>())) {
    return v->get<std::string>();
  }
  return HandshakeVersions().front();
}

json ServerInfo(const ServerIdentity& id) {
  return {{"name", "testmap"},
          {"title", "testmap: PyTorch tests x operators"},
          {"version", id.version}};
}

json ServerCapabilities(const ServerIdentity& id) {
  json caps = {{"tools", {{"listChanged", false}}}};
  if (id.resources) caps["resources"] = {{"listChanged", false}, {"subscribe", false}};
  return caps;
}

std::string ServerInstructions() {
  return "testmap answers which PyTorch tests exercise which ATen operators, with which dtypes, "
         "on which device and path (eager, torch.compile, static), from one index of scans, "
         "traces and timings. list_ops gives the operators; query_op and tests_for_ops the tests "
         "of one or several operators; show_test everything about one test; plan splits tests "
         "into CI jobs from timings; admit says which tests a backend can run and why not, "
         "rank_next_ops which operators to enable next, config_explain the mode a "
         "test_suite_config gives each test. Every answer names the runs it came from "
         "(provenance); long "
         "answers come in pages: pass page.next_cursor back as `cursor`.";
}

void StampModernResult(const std::string& method, json& result) {
  result["resultType"] = "complete";
  // The index can change under the server (a later ingest), so answers
  // drawn from it are stale at once; what the server is does not change
  // while it runs.
  if (method == "server/discover" || method == "tools/list" ||
      method == "resources/templates/list") {
    result["ttlMs"] = 300000;
    result["cacheScope"] = "private";
  } else if (method == "resources/list" || method == "resources/read" || method == "prompts/list") {
    result["ttlMs"] = 0;
    result["cacheScope"] = "private";
  }
}

}  // namespace testmap::mcp
