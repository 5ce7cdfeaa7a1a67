#include "analyzers/python/python_value.h"

#include <gtest/gtest.h>

#include <sstream>

#include "tests/support/command.h"

namespace testmap::python {
namespace {

TEST(PythonFloatStr, MatchesPythonReprOfTheSameLiterals) {
  // Ground truth: CPython's own str() of each literal.
  const std::vector<std::string> literals = {"0.5",
                                             "1e-3",
                                             "1e-5",
                                             "1.0",
                                             "100.0",
                                             "1e16",
                                             "1e15",
                                             "0.0001",
                                             "0.00001",
                                             "123456789.125",
                                             "-2.5",
                                             "3.14159",
                                             "1e-300",
                                             "2.0e22",
                                             "0.1",
                                             "1.5e-07",
                                             "9999999999999998.0",
                                             "0.0"};
  std::vector<std::string> args = {"-c", "import sys\nfor s in sys.argv[1:]: print(str(float(s)))"};
  args.insert(args.end(), literals.begin(), literals.end());
  auto python = testing::Python(args);
  ASSERT_EQ(python.rc, 0) << python.err;
  std::istringstream expected(python.out);
  for (const auto& l : literals) {
    std::string want;
    std::getline(expected, want);
    EXPECT_EQ(PythonFloatStr(std::stod(l)), want) << l;
  }
}

TEST(PythonStr, RendersScalarsAndDtypes) {
  std::string s;
  ASSERT_TRUE(PythonStr(Value::Bool(true), &s));
  EXPECT_EQ(s, "True");
  ASSERT_TRUE(PythonStr(Value::Int(-7), &s));
  EXPECT_EQ(s, "-7");
  ASSERT_TRUE(PythonStr(Value::Dtype("bfloat16"), &s));
  EXPECT_EQ(s, "torch.bfloat16");
  EXPECT_FALSE(PythonStr(Value::Unknown("x"), &s));
}

}  // namespace
}  // namespace testmap::python
