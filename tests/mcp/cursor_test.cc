// Cursors continue one question on one index state, nothing else.
#include "mcp/cursor.h"

#include <gtest/gtest.h>

#include "mcp/json_rpc.h"

namespace testmap::mcp {
namespace {

int Refused(const std::string& text, const std::string& q, uint64_t gen) {
  try {
    DecodeCursor(text, q, gen);
  } catch (const RpcError& e) {
    return e.code();
  }
  return 0;
}

TEST(Cursor, RoundTrip) {
  std::string c = EncodeCursor({"0123456789abcdef", 3, 200});
  Cursor d = DecodeCursor(c, "0123456789abcdef", 3);
  EXPECT_EQ(d.offset, 200u);
}

TEST(Cursor, RefusesOtherQuestionsStaleIndexAndGarbage) {
  std::string c = EncodeCursor({"0123456789abcdef", 3, 200});
  EXPECT_EQ(Refused(c, "fedcba9876543210", 3), kInvalidParams);
  EXPECT_EQ(Refused(c, "0123456789abcdef", 4), kInvalidParams);
  for (const char* bad :
       {"", "tm1.", "tm1.x.y.z", "tm1.0123456789abcdef.3", "abc", "tm1.0123456789abcdef.3.zz",
        "tm1.0123456789abcdef.3.11111111111111111"}) {
    EXPECT_EQ(Refused(bad, "0123456789abcdef", 3), kInvalidParams) << bad;
  }
}

}  // namespace
}  // namespace testmap::mcp
