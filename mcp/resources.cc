#include "mcp/resources.h"

#include <algorithm>
#include <cctype>

#include "core/content_hash.h"
#include "core/errors.h"
#include "mapper/query/test_document.h"
#include "mcp/cursor.h"
#include "mcp/limits.h"

namespace testmap::mcp {
namespace {

constexpr std::string_view kRunPrefix = "testmap://run/";
constexpr std::string_view kTestPrefix = "testmap://test/";

std::string PercentEncode(std::string_view s) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : s) {
    if (isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && isxdigit(s[i + 1]) && isxdigit(s[i + 2])) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::shared_ptr<const OpenIndex> Index(IndexSession& session) {
  try {
    return session.Current();
  } catch (const core::InputError& e) {
    throw RpcError(kInternalError, e.what());
  }
}

json Contents(const std::string& uri, const json& doc) {
  return {
      {"contents",
       json::array({{{"uri", uri}, {"mimeType", "application/json"}, {"text", DumpJson(doc)}}})}};
}

}  // namespace

json ListResources(IndexSession& session, const json& params) {
  auto index = Index(session);
  std::vector<std::pair<std::string, json>> runs;
  index->reader().ForEachRun([&](const std::string& id, const std::string& record) {
    runs.emplace_back(id, json::parse(record, nullptr, false));
  });
  std::string question = core::ShortHexDigest("resources/list");
  uint64_t offset = 0;
  if (auto c = params.find("cursor"); c != params.end()) {
    if (!c->is_string()) throw RpcError(kInvalidParams, "\"cursor\" must be a string");
    offset = DecodeCursor(c->get<std::string>(), question, index->generation()).offset;
  }
  offset = std::min<uint64_t>(offset, runs.size());
  uint64_t end = std::min<uint64_t>(runs.size(), offset + kDefaultPageItems);
  json list = json::array();
  for (uint64_t i = offset; i < end; ++i) {
    const auto& [id, rec] = runs[i];
    json meta = rec.is_object() ? rec.value("metadata", json::object()) : json::object();
    std::string torch = meta.contains("torch") && meta["torch"].is_object()
                            ? meta["torch"].value("version", "?")
                            : "?";
    std::string start = meta.is_object() ? meta.value("start_time", "?") : "?";
    list.push_back({{"uri", std::string(kRunPrefix) + id},
                    {"name", "run " + id},
                    {"title", "trace run " + id + " (torch " + torch + ", " + start + ")"},
                    {"description",
                     "The run record: torch version and git SHA, python, OS, CPU, "
                     "command and time of the run"},
                    {"mimeType", "application/json"}});
  }
  json result = {{"resources", list}};
  if (end < runs.size()) {
    result["nextCursor"] = EncodeCursor({question, index->generation(), end});
  }
  return result;
}

json ListResourceTemplates() {
  return {
      {"resourceTemplates", json::array({{{"uriTemplate", std::string(kRunPrefix) + "{id}"},
                                          {"name", "run"},
                                          {"title", "A trace run's record"},
                                          {"mimeType", "application/json"}},
                                         {{"uriTemplate", std::string(kTestPrefix) + "{nodeid}"},
                                          {"name", "test"},
                                          {"title",
                                           "Everything known about a test (node id or generic id, "
                                           "percent-encoded)"},
                                          {"mimeType", "application/json"}}})}};
}

json ReadResource(IndexSession& session, const json& params) {
  auto u = params.find("uri");
  if (u == params.end() || !u->is_string()) {
    throw RpcError(kInvalidParams, "resources/read needs a \"uri\" string");
  }
  std::string uri = u->get<std::string>();
  std::string_view v = uri;
  auto index = Index(session);
  if (v.substr(0, kRunPrefix.size()) == kRunPrefix) {
    std::string id(v.substr(kRunPrefix.size()));
    auto record = index->reader().Run(id);
    if (!record)
      throw RpcError(kResourceNotFound, "no run " + id + " in the index", {{"uri", uri}});
    json doc = json::parse(*record, nullptr, false);
    return Contents(uri, doc);
  }
  if (v.substr(0, kTestPrefix.size()) == kTestPrefix) {
    std::string test = PercentDecode(v.substr(kTestPrefix.size()));
    try {
      return Contents(uri, query::TestDocument(index->reader(), test));
    } catch (const core::UnknownNameError& e) {
      throw RpcError(kResourceNotFound, e.what(), {{"uri", uri}});
    }
  }
  throw RpcError(kResourceNotFound, "unknown resource " + uri, {{"uri", uri}});
}

std::string TestResourceUri(const std::string& nodeid) {
  return std::string(kTestPrefix) + PercentEncode(nodeid);
}

}  // namespace testmap::mcp
