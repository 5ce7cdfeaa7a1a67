#include "mcp/json_rpc.h"

#include "core/json_depth.h"
#include "mcp/limits.h"

namespace testmap::mcp {

int JsonDepth(std::string_view text, int limit) { return core::JsonDepth(text, limit); }

Message ParseMessage(std::string_view line) {
  if (JsonDepth(line, kMaxJsonDepth) > kMaxJsonDepth) {
    throw BadMessage{nullptr,
                     RpcError(kInvalidRequest, "message nested deeper than " +
                                                   std::to_string(kMaxJsonDepth) + " levels")};
  }
  json doc = json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    throw BadMessage{nullptr,
                     RpcError(kParseError, "parse error: not a JSON value (or not UTF-8)")};
  }
  if (doc.is_array()) {
    throw BadMessage{
        nullptr, RpcError(kInvalidRequest, "batches are not supported: send one message a line")};
  }
  if (!doc.is_object()) {
    throw BadMessage{nullptr, RpcError(kInvalidRequest, "a JSON-RPC message is a JSON object")};
  }
  Message m;
  auto id = doc.find("id");
  bool has_id = id != doc.end();
  if (has_id && (id->is_string() || id->is_number_integer() || id->is_number_unsigned())) {
    m.id = *id;
  }
  auto bad = [&](int code, const std::string& what) {
    return BadMessage{m.id, RpcError(code, what)};
  };
  auto version = doc.find("jsonrpc");
  if (version == doc.end() || *version != "2.0") {
    throw bad(kInvalidRequest, "\"jsonrpc\" must be \"2.0\"");
  }
  if (has_id && m.id.is_null()) {
    throw bad(kInvalidRequest, "\"id\" must be a string or an integer");
  }
  auto method = doc.find("method");
  if (method == doc.end()) {
    if (has_id && (doc.contains("result") || doc.contains("error"))) {
      m.kind = Message::Kind::kResponse;
      return m;
    }
    throw bad(kInvalidRequest, "a request needs a \"method\"");
  }
  if (!method->is_string()) throw bad(kInvalidRequest, "\"method\" must be a string");
  m.method = method->get<std::string>();
  m.kind = has_id ? Message::Kind::kRequest : Message::Kind::kNotification;
  auto params = doc.find("params");
  if (params != doc.end() && !params->is_null()) {
    if (params->is_array()) throw bad(kInvalidParams, "\"params\" must be an object, not an array");
    if (!params->is_object()) throw bad(kInvalidRequest, "\"params\" must be an object");
    m.params = std::move(*params);
  }
  return m;
}

std::string DumpJson(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string ResultLine(const json& id, const json& result) {
  // Spliced rather than wrapped: a result can be megabytes, not worth a copy.
  return "{\"jsonrpc\":\"2.0\",\"id\":" + DumpJson(id) + ",\"result\":" + DumpJson(result) + "}\n";
}

std::string ErrorLine(const json& id, const RpcError& error) {
  json err = {{"code", error.code()}, {"message", error.what()}};
  if (!error.data().is_null()) err["data"] = error.data();
  json msg = {{"jsonrpc", "2.0"}, {"id", id}, {"error", err}};
  return DumpJson(msg) + "\n";
}

}  // namespace testmap::mcp
