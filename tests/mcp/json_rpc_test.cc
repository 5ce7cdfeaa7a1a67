// The JSON-RPC envelope: every malformed message has an error to answer.
#include "mcp/json_rpc.h"

#include <gtest/gtest.h>

#include "mcp/limits.h"

namespace testmap::mcp {
namespace {

int CodeOf(const std::string& line, json* id = nullptr) {
  try {
    ParseMessage(line);
  } catch (const BadMessage& bad) {
    if (id) *id = bad.id;
    return bad.error.code();
  }
  return 0;
}

TEST(JsonRpc, Requests) {
  Message m = ParseMessage(R"({"jsonrpc":"2.0","id":"a","method":"tools/list"})");
  EXPECT_EQ(m.kind, Message::Kind::kRequest);
  EXPECT_EQ(m.id, "a");
  EXPECT_TRUE(m.params.is_object());
  m = ParseMessage(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  EXPECT_EQ(m.kind, Message::Kind::kNotification);
  m = ParseMessage(R"({"jsonrpc":"2.0","id":7,"result":{}})");
  EXPECT_EQ(m.kind, Message::Kind::kResponse);
}

TEST(JsonRpc, Errors) {
  EXPECT_EQ(CodeOf("{"), kParseError);
  EXPECT_EQ(CodeOf("\xff\xfe"), kParseError);
  EXPECT_EQ(CodeOf("[]"), kInvalidRequest);
  EXPECT_EQ(CodeOf("3"), kInvalidRequest);
  json id;
  EXPECT_EQ(CodeOf(R"({"id":4,"method":"x"})", &id), kInvalidRequest);
  EXPECT_EQ(id, 4);  // the id is still answered
  EXPECT_EQ(CodeOf(R"({"jsonrpc":"2.0","id":null,"method":"x"})"), kInvalidRequest);
  EXPECT_EQ(CodeOf(R"({"jsonrpc":"2.0","id":{},"method":"x"})", &id), kInvalidRequest);
  EXPECT_TRUE(id.is_null());
  EXPECT_EQ(CodeOf(R"({"jsonrpc":"2.0","id":1,"method":3})"), kInvalidRequest);
  EXPECT_EQ(CodeOf(R"({"jsonrpc":"2.0","id":1,"method":"x","params":[1]})"), kInvalidParams);
  EXPECT_EQ(CodeOf(R"({"jsonrpc":"2.0","id":1,"method":"x","params":"p"})"), kInvalidRequest);
  EXPECT_EQ(CodeOf(R"({"jsonrpc":"2.0","id":1})"), kInvalidRequest);
}

TEST(JsonRpc, DepthIsCheckedBeforeParsing) {
  std::string deep = std::string(kMaxJsonDepth + 1, '[') + std::string(kMaxJsonDepth + 1, ']');
  EXPECT_EQ(CodeOf(deep), kInvalidRequest);
  // Brackets inside strings do not count.
  std::string quoted = R"({"jsonrpc":"2.0","id":1,"method":")" + std::string(500, '[') + "\"}";
  EXPECT_EQ(CodeOf(quoted), 0);
  EXPECT_EQ(JsonDepth(R"({"a":[{"b":"[[[\"["}]})", 100), 3);
}

TEST(JsonRpc, InvalidUtf8InAnswersIsReplacedNotFatal) {
  std::string line = ResultLine(1, {{"nodeid", std::string("t\xff.py")}});
  EXPECT_NE(line.find("t\xEF\xBF\xBD.py"), std::string::npos);  // U+FFFD
  EXPECT_EQ(line.back(), '\n');
}

}  // namespace
}  // namespace testmap::mcp
