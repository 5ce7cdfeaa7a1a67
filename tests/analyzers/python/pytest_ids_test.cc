#include "analyzers/python/pytest_ids.h"

#include <gtest/gtest.h>

#include "tests/support/command.h"

namespace testmap::python {
namespace {

TEST(PytestAsciiEscaped, MatchesPytestsOwnEscaping) {
  // Ground truth: _pytest.compat.ascii_escaped on the same strings.
  const std::vector<std::string> inputs = {
      "plain",       "tab\there",    "new\nline",        "back\\slash",
      "caf\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80", "bell\x07"};
  for (const auto& s : inputs) {
    std::string hex;
    for (unsigned char c : s) {
      char b[3];
      std::snprintf(b, sizeof b, "%02x", c);
      hex += b;
    }
    auto want =
        testing::Python({"-c",
                         "import sys; from _pytest.compat import ascii_escaped; "
                         "sys.stdout.write(ascii_escaped(bytes.fromhex(sys.argv[1]).decode()))",
                         hex});
    ASSERT_EQ(want.rc, 0) << want.err;
    EXPECT_EQ(PytestAsciiEscaped(s), want.out) << hex;
  }
}

}  // namespace
}  // namespace testmap::python
