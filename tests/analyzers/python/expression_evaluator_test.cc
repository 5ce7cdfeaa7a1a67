#include "analyzers/python/expression_evaluator.h"

#include <gtest/gtest.h>

namespace testmap::python {
namespace {

// Evaluates the right-hand side of the module's last assignment `X = ...`.
struct Fixture {
  std::unique_ptr<TSParser, ParserDeleter> parser = NewPythonParser();
  std::unique_ptr<ParsedModule> module;
  std::unique_ptr<ModuleModel> model;
  std::unique_ptr<Evaluator> ev;
  Value Eval(const std::string& src) {
    module = std::make_unique<ParsedModule>(parser.get(), src);
    model = std::make_unique<ModuleModel>(BuildModuleModel(*module));
    ev = std::make_unique<Evaluator>(*module, *model, nullptr);
    return ev->Eval(model->assignments.at("X"));
  }
};

TEST(Evaluator, LiteralsContainersAndArithmetic) {
  Fixture f;
  Value v = f.Eval("A = [1, 2]\nX = A + [3] * 2 + list(range(1, 7, 3))\n");
  ASSERT_EQ(v.kind, Value::Kind::kList);
  std::vector<int64_t> got;
  for (const auto& i : v.items) got.push_back(i.i);
  EXPECT_EQ(got, (std::vector<int64_t>{1, 2, 3, 3, 1, 4}));
  EXPECT_EQ(f.Eval("X = 'a' 'b' + \"c\\n\"").text, "abc\n");
  EXPECT_EQ(f.Eval("X = -0x10").i, -16);
  EXPECT_EQ(f.Eval("X = r'\\d'").text, "\\d");
}

TEST(Evaluator, ComprehensionsLambdasAndFStrings) {
  Fixture f;
  Value v = f.Eval("X = [f'{n}x{m!r}' for n in range(3) if n != 1 for m in ('a',)]\n");
  ASSERT_EQ(v.kind, Value::Kind::kList);
  ASSERT_EQ(v.items.size(), 2u);
  EXPECT_EQ(v.items[1].text, "2x'a'");
  Value fn = f.Eval("def name(a, b=2):\n    \"doc\"\n    return f'{a}_{b}'\nX = name\n");
  EXPECT_EQ(f.ev->Call(fn, {Value::Int(1)}).text, "1_2");
  Value lam = f.Eval("X = lambda x, y: str(x) + '-' + y\n");
  EXPECT_EQ(f.ev->Call(lam, {Value::Float(0.5), Value::Str("q")}).text, "0.5-q");
}

TEST(Evaluator, UnknownsStayUnknownWithTheirText) {
  Fixture f;
  Value v = f.Eval("X = [compute(), 3]\n");
  ASSERT_EQ(v.kind, Value::Kind::kList);
  EXPECT_EQ(v.items[0].kind, Value::Kind::kUnknown);
  EXPECT_EQ(v.items[0].text, "compute()");
  EXPECT_TRUE(v.HasUnknown());
  // Self-reference does not loop.
  EXPECT_EQ(f.Eval("X = X + 1\n").kind, Value::Kind::kUnknown);
}

}  // namespace
}  // namespace testmap::python
