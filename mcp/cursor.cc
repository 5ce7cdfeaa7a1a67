#include "mcp/cursor.h"

#include <charconv>

#include "mcp/json_rpc.h"

namespace testmap::mcp {
namespace {

constexpr std::string_view kPrefix = "tm1.";

bool ParseHex(std::string_view s, uint64_t& v) {
  if (s.empty() || s.size() > 16) return false;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  return ec == std::errc() && p == s.data() + s.size();
}

std::string Hex(uint64_t v) {
  char buf[17];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
  return std::string(buf, p);
}

}  // namespace

std::string EncodeCursor(const Cursor& c) {
  return std::string(kPrefix) + c.question + "." + Hex(c.generation) + "." + Hex(c.offset);
}

Cursor DecodeCursor(const std::string& text, const std::string& question, uint64_t generation) {
  auto invalid = [&](const std::string& why) {
    return RpcError(kInvalidParams, "invalid cursor: " + why, {{"cursor", text}});
  };
  std::string_view s = text;
  if (s.substr(0, kPrefix.size()) != kPrefix) throw invalid("not a cursor this server gave");
  s.remove_prefix(kPrefix.size());
  size_t a = s.find('.'), b = a == std::string_view::npos ? a : s.find('.', a + 1);
  Cursor c;
  if (b == std::string_view::npos) throw invalid("not a cursor this server gave");
  c.question = std::string(s.substr(0, a));
  if (!ParseHex(s.substr(a + 1, b - a - 1), c.generation) || !ParseHex(s.substr(b + 1), c.offset)) {
    throw invalid("not a cursor this server gave");
  }
  if (c.question != question) {
    throw invalid(
        "it continues another question (same tool and arguments, only cursor and limit may "
        "change)");
  }
  if (c.generation != generation) {
    throw invalid("the index changed since this page (a later ingest): ask again without a cursor");
  }
  return c;
}

}  // namespace testmap::mcp
