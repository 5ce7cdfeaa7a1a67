// The C++ prefilter: a unit reaches Clang when it names a registration API
// or a macro of the backend's own over one, however deep the macros nest;
// words in comments and strings do not count.
#include "analyzers/backend/cpp_prefilter.h"

#include <gtest/gtest.h>

namespace tb = testmap::backend;

namespace {

TEST(CppPrefilter, BackendMacrosAreFoundThroughOtherMacrosAndHeaders) {
  std::string header =
      "#define MY_IMPL(op) m.impl(#op, TORCH_FN(my_##op))\n"
      "#define MY_UNARY(op) \\\n    MY_IMPL(op)\n"
      "#define MY_BLOCK(key) TORCH_LIBRARY_IMPL(aten, key, m)\n"
      "#define NOT_A_REGISTRATION(x) ((x) + 1)\n";
  tb::CppPrefilter f({header});
  EXPECT_EQ(f.backend_macros(), (std::set<std::string>{"MY_BLOCK", "MY_IMPL", "MY_UNARY"}));
  EXPECT_TRUE(f.Matches("void f(); MY_UNARY(neg);"));
  EXPECT_TRUE(f.Matches("MY_BLOCK(PrivateUse1) {}"));
  EXPECT_FALSE(f.Matches("int x = NOT_A_REGISTRATION(1);"));
}

TEST(CppPrefilter, TorchApisMatchCommentsAndStringsDoNot) {
  tb::CppPrefilter f({});
  EXPECT_TRUE(f.Matches("TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { }"));
  EXPECT_TRUE(f.Matches("REGISTER_PRIVATEUSE1_DISPATCH(abs_stub, &k);"));
  EXPECT_TRUE(f.Matches("static void helper(torch::Library& m);"));
  EXPECT_TRUE(f.Matches("C10_REGISTER_GUARD_IMPL(PrivateUse1, Guard);"));
  EXPECT_FALSE(f.Matches("// TORCH_LIBRARY_IMPL(aten, PrivateUse1, m)\n/* m.impl */ int x;"));
  EXPECT_FALSE(f.Matches("const char* s = \"TORCH_LIBRARY\"; at::Tensor add(at::Tensor a);"));
  EXPECT_FALSE(f.Matches("int TORCH_LIBRARY_IMPLX = 0;"));
}

}  // namespace
