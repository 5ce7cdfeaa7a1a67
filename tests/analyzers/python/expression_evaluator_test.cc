#include "analyzers/python/expression_evaluator.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "tests/support/command.h"

namespace testmap::python {
namespace {

// A value as the tests compare it: unknowns with their text, lists item by
// item, strings quoted.
std::string Render(const Value& v) {
  if (v.kind == Value::Kind::kUnknown) return "<unknown " + v.text + ">";
  if (v.kind == Value::Kind::kStr) return "'" + v.text + "'";
  if (v.kind == Value::Kind::kList) {
    std::string out = "[";
    for (const Value& item : v.items) out += (out.size() > 1 ? ", " : "") + Render(item);
    return out + "]";
  }
  std::string s;
  return PythonStr(v, &s) ? s : "<kind " + std::to_string(static_cast<int>(v.kind)) + ">";
}

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
  // X evaluated with a Locals entry for T (its module value), which keeps a
  // comprehension that reads T off the compiled path: the interpreter's
  // answer to the same expression.
  Value Interpret(const std::string& src) {
    module = std::make_unique<ParsedModule>(parser.get(), src);
    model = std::make_unique<ModuleModel>(BuildModuleModel(*module));
    ev = std::make_unique<Evaluator>(*module, *model, nullptr);
    Evaluator::Locals locals{{"T", ev->Eval(model->assignments.at("T"))}};
    misses_before = ev->snapshot_misses();
    return ev->Eval(model->assignments.at("X"), &locals);
  }
  uint64_t misses_before = 0;
};

// The compiled comprehension and the interpreter agree, down to unknowns'
// text and how often the (missing) torch snapshot was asked for.
void ExpectCompiledAsInterpreted(const std::string& src, const std::string& expected) {
  Fixture compiled, interpreted;
  Value fast = compiled.Eval(src);
  Value slow = interpreted.Interpret(src);
  EXPECT_EQ(Render(fast), Render(slow)) << src;
  EXPECT_EQ(Render(fast), expected) << src;
  EXPECT_EQ(compiled.ev->snapshot_misses(),
            interpreted.ev->snapshot_misses() - interpreted.misses_before)
      << src;
}

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

TEST(Evaluator, StringEscapesDecodeAsPythonOrStayUnknown) {
  Fixture f;
  EXPECT_EQ(Render(f.Eval(R"(X = "\u00e9\x41\101\12\U0001F600")")),
            "'\xc3\xa9"
            "AA\n\xf0\x9f\x98\x80'");
  EXPECT_EQ(Render(f.Eval(R"(X = "a\qb\\")")), R"('a\qb\')");
  // Lengths in code points, escapes decoded.
  EXPECT_EQ(Render(f.Eval(R"(X = [len("h\u00e9"), len("\x41\U0001F600"), len(""), len("ab\\")])")),
            "[2, 2, 0, 3]");
  EXPECT_EQ(Render(f.Eval(R"(X = r"\x41")")), R"('\x41')");
  // What cannot be decoded here is unknown, never a wrong string.
  EXPECT_EQ(Render(f.Eval(R"(X = "\N{BULLET}")")), R"(<unknown "\N{BULLET}">)");
  EXPECT_EQ(Render(f.Eval(R"(X = "\x4")")), R"(<unknown "\x4">)");
  EXPECT_EQ(Render(f.Eval(R"(X = "\ud800")")), R"(<unknown "\ud800">)");
  EXPECT_EQ(Render(f.Eval(R"(X = f"\u00e9{1}\N{BULLET}")")), R"(<unknown f"\u00e9{1}\N{BULLET}">)");
}

TEST(Evaluator, UnknownsKnownToBePrimitivesSaySo) {
  // Python gives a bool or an int here whatever f() is; a comparison with
  // an unknown object may be overloaded (a tensor's `>` is a tensor).
  Fixture f;
  Value v = f.Eval(
      "X = [not f(), len(f()), f() in y, isinstance(f(), g), len(f()) > 0, "
      "f() > 1, f() == g(), -f(), f()]\n");
  ASSERT_EQ(v.kind, Value::Kind::kList);
  std::vector<bool> primitive;
  for (const Value& item : v.items) {
    EXPECT_EQ(item.kind, Value::Kind::kUnknown) << item.text;
    primitive.push_back(item.primitive);
  }
  EXPECT_EQ(primitive,
            (std::vector<bool>{true, true, true, true, true, false, false, false, false}));
}

TEST(Evaluator, ArithmeticOnNumbersIsPythons) {
  // Each against what the real interpreter answers; where Python's answer
  // is no number the evaluator holds (an error, past 64 bits, inf, nan, a
  // complex), an unknown known to be a number.
  const std::vector<std::string> exprs = {"1 + 2",
                                          "7 - 10",
                                          "6 * -7",
                                          "7 / 2",
                                          "-7 // 2",
                                          "7 // -2",
                                          "-7 % 3",
                                          "7 % -3",
                                          "2 ** 10",
                                          "2 ** -1",
                                          "3.5 // 1",
                                          "-3.5 // 1",
                                          "-7.5 % 2",
                                          "7.5 % -2",
                                          "0.1 + 0.2",
                                          "True + 1",
                                          "1e308 * 10",
                                          "2 ** 63",
                                          "2 ** 62 * 2",
                                          "-(-9223372036854775807 - 1)",
                                          "1 / 0",
                                          "1 // 0",
                                          "5 % 0",
                                          "0.0 ** -1",
                                          "(-8) ** 0.5",
                                          "-9223372036854775807 - 1",
                                          "(-9223372036854775807 - 1) // -1",
                                          "10 ** 18 + 10 ** 18",
                                          "-0.0 % 5",
                                          "1.5 - 1.5",
                                          "9007199254740993 * 1.0"};
  std::string script =
      "import json, sys\nout = []\nfor e in sys.argv[1:]:\n"
      "    try:\n        v = eval(e)\n    except Exception:\n        v = None\n"
      "    ok = isinstance(v, int) and -2**63 <= v < 2**63 or isinstance(v, float) and "
      "v == v and abs(v) != float('inf')\n    out.append(repr(v) if ok else None)\n"
      "print(json.dumps(out))\n";
  std::vector<std::string> args = {"-c", script};
  args.insert(args.end(), exprs.begin(), exprs.end());
  auto live = testing::Python(args);
  ASSERT_EQ(live.rc, 0) << live.err;
  auto truth = nlohmann::json::parse(live.out);
  ASSERT_EQ(truth.size(), exprs.size());
  Fixture f;
  for (size_t i = 0; i < exprs.size(); ++i) {
    Value v = f.Eval("X = " + exprs[i] + "\n");
    if (truth[i].is_null()) {
      EXPECT_EQ(v.kind, Value::Kind::kUnknown) << exprs[i] << " gave " << Render(v);
      EXPECT_TRUE(v.primitive) << exprs[i];
    } else {
      EXPECT_EQ(Render(v), truth[i].get<std::string>()) << exprs[i];
    }
  }
  // Anything else stays unknown, not known to be a number: a tensor's
  // arithmetic is a tensor; a str formatted with % is a str.
  EXPECT_FALSE(f.Eval("X = f() * 2\n").primitive);
  EXPECT_TRUE(f.Eval("X = '%s' % f()\n").primitive);
}

TEST(Evaluator, CompiledCallsInComprehensionsAsInterpreted) {
  const std::string defs =
      "T = 2\nL = [(1, 2), (3,), (), (4, 5, 6)]\nN = [3, 1, 4, 1, 5]\n"
      "def twice(v):\n    return v * 2\n";
  // A builtin and a module-level def called per item, in condition and body.
  ExpectCompiledAsInterpreted(defs + "X = [len(x) for x in L if len(x) >= T]\n", "[2, 3]");
  ExpectCompiledAsInterpreted(defs + "X = [twice(x) for x in N if twice(x) > T * 3]\n", "[8, 10]");
  ExpectCompiledAsInterpreted(defs + "X = [str(x) for x in N if not x < T]\n", "['3', '4', '5']");
  // An unknown inside a call: in a condition the whole comprehension is
  // unknown as written; in the body each item keeps the call's text.
  ExpectCompiledAsInterpreted(defs + "X = [x for x in N if compute(x) and x > T]\n",
                              "<unknown [x for x in N if compute(x) and x > T]>");
  ExpectCompiledAsInterpreted(defs + "X = [compute(x, T) for x in N if x > T + 1]\n",
                              "[<unknown compute(x, T)>, <unknown compute(x, T)>]");
  // isinstance of a plain value is unknown (only OpInfos' classes are known).
  ExpectCompiledAsInterpreted(defs + "X = [x for x in N if isinstance(x, int) or T]\n",
                              "<unknown [x for x in N if isinstance(x, int) or T]>");
  // Short-circuiting never reaches the unknown call, nor a constant that
  // needs the missing snapshot.
  ExpectCompiledAsInterpreted(defs + "X = [x for x in N if x > 0 or compute(x)]\n",
                              "[3, 1, 4, 1, 5]");
  ExpectCompiledAsInterpreted(
      defs + "X = [x for x in N if x > T + 3 and twice(x) == torch.float32]\n", "[]");
  ExpectCompiledAsInterpreted(
      defs + "import torch\nX = [x for x in N if x > T + 2 and twice(x) != torch.float32]\n",
      "<unknown [x for x in N if x > T + 2 and twice(x) != torch.float32]>");
  // A comprehension inside the condition, reading no loop variable of the
  // outer one, evaluated once.
  ExpectCompiledAsInterpreted(
      defs + "X = [x for x in N if twice(x) in [twice(y) for y in N if y < T]]\n", "[1, 1]");
  // An attribute the evaluator does not know, as an argument.
  ExpectCompiledAsInterpreted(defs + "X = [twice(x.real) for x in N if x > T + 2]\n",
                              "[<unknown twice(x.real)>]");
}

TEST(Evaluator, CompiledFilterLambdaAsCalledPerItem) {
  Fixture f;
  const std::string defs = "T = 2\nN = [3, 1, 4, 1, 5]\ndef twice(v):\n    return v * 2\n";
  for (std::string cond : {"x > T and twice(x) != 8", "not twice(x) > T", "x > 4 or compute(x)",
                           "len(x)", "compute(x) or True"}) {
    Value lambda = f.Eval(defs + "X = lambda x: " + cond + "\n");
    std::vector<Value> expected;
    bool all_known = true;
    Value items = f.ev->Eval(f.model->assignments.at("N"));
    for (const Value& item : items.items) {
      bool known;
      bool keep = f.ev->Truthy(f.ev->Call(lambda, {item}), &known);
      all_known = all_known && known;
      if (known && keep) expected.push_back(item);
    }
    std::string call = "list(filter(lambda x: " + cond + ", N))";
    Value got = f.Eval(defs + "X = " + call + "\n");
    if (!all_known) {
      EXPECT_EQ(got.kind, Value::Kind::kUnknown) << cond;
      EXPECT_EQ(got.text, call) << cond;
    } else {
      EXPECT_EQ(Render(got), Render(Value::List(expected))) << cond;
    }
  }
  EXPECT_EQ(Render(f.Eval(defs + "X = list(filter(lambda x: x > T and twice(x) != 8, N))\n")),
            "[3, 5]");
}

TEST(Evaluator, ClassScopeComprehensionReadsClassIterable) {
  Fixture f;
  f.Eval(
      "T = 2\nX = 0\nclass C:\n    A = [1, 2, 3]\n    B = [x for x in A if x > T]\n"
      "    D = [x for x in A if x > A[0]]\n");
  ASSERT_EQ(f.model->classes.size(), 1u);
  const Evaluator::Locals* scope = f.ev->ClassScope(f.model->classes[0]);
  ASSERT_NE(scope, nullptr);
  EXPECT_EQ(Render(scope->at("B")), "[3]");
  EXPECT_EQ(Render(scope->at("D")), "[2, 3]");  // reads a class local: interpreted
}

}  // namespace
}  // namespace testmap::python
