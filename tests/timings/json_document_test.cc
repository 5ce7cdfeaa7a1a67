#include "timings/json_document.h"

#include <gtest/gtest.h>

#include "core/errors.h"

namespace testmap::timings {
namespace {

core::InputError ErrorOf(const std::string& text) {
  try {
    ParseJsonDocument(text, "f.json");
  } catch (const core::InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for " << text.substr(0, 80);
  return core::InputError("none");
}

TEST(JsonDocument, EveryValueKnowsItsLineAndObjectsKeepDocumentOrder) {
  JsonValue doc = ParseJsonDocument(
      "{\n  \"z\": 1,\n  \"a\": {\n    \"x\": [true,\n null, \"s\"]\n  },\n  \"m\": 2.5e1\n}\n",
      "f.json");
  ASSERT_TRUE(doc.is_object());
  ASSERT_EQ(doc.members.size(), 3u);
  EXPECT_EQ(doc.members[0].first, "z");  // not sorted: as written
  EXPECT_EQ(doc.members[0].second.line, 2);
  EXPECT_EQ(doc.members[1].second.line, 3);
  const JsonValue& list = doc.members[1].second.members[0].second;
  EXPECT_EQ(list.line, 4);
  ASSERT_EQ(list.elements.size(), 3u);
  EXPECT_EQ(list.elements[1].line, 5);
  EXPECT_EQ(list.elements[2].string, "s");
  EXPECT_EQ(doc.members[2].second.line, 7);
  EXPECT_DOUBLE_EQ(doc.members[2].second.number, 25);
}

// A number is finished by the character after it; when that is the
// newline, the number is still on its own line.
TEST(JsonDocument, NumberBeforeANewlineIsOnItsLine) {
  JsonValue doc = ParseJsonDocument("[\n1\n,\n2\n]", "f.json");
  EXPECT_EQ(doc.elements[0].line, 2);
  EXPECT_EQ(doc.elements[1].line, 4);
}

TEST(JsonDocument, DuplicateKeyIsAnErrorAtItsSecondLine) {
  auto e = ErrorOf("{\n\"a\": 1,\n\"b\": {\"c\": 1, \"c\": 2},\n\"a\": 3\n}");
  // The inner duplicate closes first, at line 3.
  EXPECT_EQ(e.line(), 3) << e.what();
  EXPECT_NE(std::string(e.what()).find("duplicate key \"c\""), std::string::npos) << e.what();
  auto outer = ErrorOf("{\n\"a\": 1,\n\"b\": 2,\n\"a\": 3\n}");
  EXPECT_EQ(outer.line(), 4);
  // The same key in sibling objects is no duplicate.
  EXPECT_NO_THROW(ParseJsonDocument("[{\"a\": 1}, {\"a\": 2}]", "f.json"));
}

TEST(JsonDocument, NaNAndInfinityGetAHint) {
  for (const char* bad : {"{\n\"a\": NaN}", "{\n\"a\": Infinity}", "{\n\"a\": -Infinity}"}) {
    auto e = ErrorOf(bad);
    EXPECT_EQ(e.line(), 2) << bad;
    EXPECT_NE(std::string(e.what()).find("NaN or Infinity"), std::string::npos) << e.what();
  }
  auto overflow = ErrorOf("{\n\n\"a\": 1e400}");
  EXPECT_EQ(overflow.line(), 3);
  EXPECT_NE(std::string(overflow.what()).find("number overflow"), std::string::npos);
}

// 100,000 levels on one line crashed plan and ingest (recursion while
// building an error message); the limit is met before any recursion.
TEST(JsonDocument, NestingPastTheLimitIsRefusedNotRecursed) {
  for (const std::string& deep : {std::string(100000, '[') + std::string(100000, ']'), [] {
                                    std::string s;
                                    for (int i = 0; i < 100000; ++i) s += "{\"a\":";
                                    return s + "1" + std::string(100000, '}');
                                  }()}) {
    auto e = ErrorOf(deep);
    EXPECT_EQ(e.line(), 1);
    EXPECT_NE(std::string(e.what()).find("deeper than 64 levels"), std::string::npos) << e.what();
  }
  std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
  EXPECT_NO_THROW(ParseJsonDocument(ok, "f.json"));
  EXPECT_THROW(ParseJsonDocument("[" + ok + "]", "f.json"), core::InputError);
}

TEST(JsonDocument, BadInputNamesTheLine) {
  EXPECT_EQ(ErrorOf("").line(), 0);
  EXPECT_EQ(ErrorOf("{\n\"a\": 1,\n").line(), 3);
  EXPECT_EQ(ErrorOf("{\"a\": 1} trailing").line(), 1);
  // Messages stay short whatever the input holds.
  auto e = ErrorOf("{\"" + std::string(1 << 20, 'k') + "\": 1, \"" + std::string(1 << 20, 'k') +
                   "\": 2}");
  EXPECT_LT(std::string(e.what()).size(), 400u);
  JsonValue long_string = ParseJsonDocument("\"" + std::string(1000, 's') + "\"", "f.json");
  EXPECT_LT(long_string.Describe().size(), 80u);
}

}  // namespace
}  // namespace testmap::timings
