// JSON-RPC 2.0 as MCP uses it: one message a line, requests with a string
// or integer id, notifications without one, no batches. Parsing checks the
// envelope (and the nesting depth, before nlohmann-json recurses); every
// failure is an RpcError carrying the code and, when it could be read, the
// request's id, so the server always has an answer to send.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>

namespace testmap::mcp {

using nlohmann::json;

// JSON-RPC's codes and the one MCP adds.
enum RpcCode : int {
  kParseError = -32700,
  kInvalidRequest = -32600,
  kMethodNotFound = -32601,
  kInvalidParams = -32602,
  kInternalError = -32603,
  kUnsupportedProtocolVersion = -32022,  // MCP 2026-07-28
};

// An error answer. `data` (optional) is the structured complaint: schema
// errors, supported versions.
class RpcError : public std::runtime_error {
 public:
  RpcError(int code, const std::string& message, json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}
  int code() const { return code_; }
  const json& data() const { return data_; }

 private:
  int code_;
  json data_;
};

struct Message {
  enum class Kind { kRequest, kNotification, kResponse };
  Kind kind = Kind::kRequest;
  json id;  // requests (and responses): a string or an integer
  std::string method;
  json params = json::object();  // always an object (empty when absent)
};

// A message that cannot be answered as asked, with the id when the
// envelope had a usable one (else null, as JSON-RPC prescribes).
struct BadMessage {
  json id;
  RpcError error;
};

// Parses one line. Throws BadMessage.
Message ParseMessage(std::string_view line);

// The deepest nesting of arrays and objects in `text`, counted outside
// strings, without parsing it; stops counting past `limit`.
int JsonDepth(std::string_view text, int limit);

// Serialized response lines (newline included). Strings that are not
// valid UTF-8 (a test id from a strange file) are written with U+FFFD
// rather than failing the answer.
std::string ResultLine(const json& id, const json& result);
std::string ErrorLine(const json& id, const RpcError& error);
std::string DumpJson(const json& value);

}  // namespace testmap::mcp
