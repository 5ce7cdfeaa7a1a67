#include "analyzers/python/source_hash.h"

#include <gtest/gtest.h>

namespace testmap::python {
namespace {

std::string HashOf(const std::string& src) {
  auto parser = NewPythonParser();
  ParsedModule m(parser.get(), src);
  return NormalizedSourceHash(m, ts_node_named_child(m.root(), 0));
}

TEST(NormalizedSourceHash, IgnoresCommentsAndFormatting) {
  std::string a =
      "@dtypes(torch.float)\ndef test_x(self, dtype):\n    y = f(1, 2)  # note\n    return y\n";
  std::string b =
      "@dtypes( torch.float )\ndef test_x(self,dtype):\n    # a comment\n    y = f(1,\n          "
      "2)\n\n    return y\n";
  EXPECT_EQ(HashOf(a), HashOf(b));
}

TEST(NormalizedSourceHash, SeesChangesToCodeDecoratorsAndStrings) {
  std::string base = "@dtypes(torch.float)\ndef test_x(self):\n    return 'a b'\n";
  EXPECT_NE(HashOf(base), HashOf("@dtypes(torch.double)\ndef test_x(self):\n    return 'a b'\n"));
  EXPECT_NE(HashOf(base), HashOf("@dtypes(torch.float)\ndef test_x(self):\n    return 'a  b'\n"));
  EXPECT_NE(HashOf(base), HashOf("@dtypes(torch.float)\ndef test_x(self):\n    return 'ab'\n"));
  EXPECT_EQ(HashOf(base).size(), 32u);
}

}  // namespace
}  // namespace testmap::python
