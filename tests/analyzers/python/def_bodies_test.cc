// The parse that skips def bodies against the full parse of the same
// source: every definition, decorator and class the analysis reads must
// have the same text and lines, the bodies skipped must be exactly the
// module-level defs and class methods whose body starts on a line of its
// own (found in the full tree, independently of the line pre-pass), and a
// module-level def's body parsed on demand must be the full parse's.
#include "analyzers/python/def_bodies.h"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <set>
#include <string>

#include "analyzers/python/python_parser.h"
#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kCompared = {"function_definition", "decorated_definition",
                                         "class_definition", "decorator", "block"};

// Whether a def's body starts on a line of its own (the pre-pass skips
// only those).
bool HasBlockBody(TSNode def) {
  return ts_node_start_point(Field(def, "body")).row >
         ts_node_end_point(Field(def, "parameters")).row;
}

// Module-level defs and methods of top-level classes with a body on lines
// of its own, in the full tree.
size_t DefsWithBlockBodies(TSNode root) {
  size_t n = 0;
  for (uint32_t i = 0, c = ts_node_named_child_count(root); i < c; ++i) {
    TSNode top = ts_node_named_child(root, i);
    if (Is(top, "decorated_definition")) top = Field(top, "definition");
    if (Is(top, "function_definition") && HasBlockBody(top)) ++n;
    if (!Is(top, "class_definition")) continue;
    TSNode body = Field(top, "body");
    for (uint32_t k = 0, m = ts_node_named_child_count(body); k < m; ++k) {
      TSNode def = ts_node_named_child(body, k);
      if (Is(def, "decorated_definition")) def = Field(def, "definition");
      if (Is(def, "function_definition") && HasBlockBody(def)) ++n;
    }
  }
  return n;
}

// Every node below `a` and below `b`: the same types, bytes and lines.
void ExpectSameSubtree(TSNode a, TSNode b, const std::string& label) {
  ASSERT_STREQ(ts_node_type(a), ts_node_type(b)) << label;
  EXPECT_EQ(ts_node_start_byte(a), ts_node_start_byte(b)) << label;
  EXPECT_EQ(ts_node_end_byte(a), ts_node_end_byte(b)) << label;
  EXPECT_EQ(ts_node_start_point(a).row, ts_node_start_point(b).row) << label;
  EXPECT_EQ(ts_node_end_point(a).row, ts_node_end_point(b).row) << label;
  EXPECT_EQ(ts_node_end_point(a).column, ts_node_end_point(b).column) << label;
  ASSERT_EQ(ts_node_child_count(a), ts_node_child_count(b)) << label;
  for (uint32_t i = 0, c = ts_node_child_count(a); i < c; ++i)
    ExpectSameSubtree(ts_node_child(a, i), ts_node_child(b, i), label);
}

// The full tree's node of `type` starting at `byte`.
TSNode FullNode(TSNode root, const char* type, uint32_t byte) {
  TSNode n = ts_node_descendant_for_byte_range(root, byte, byte);
  while (!ts_node_is_null(n) && !(Is(n, type) && ts_node_start_byte(n) == byte))
    n = ts_node_parent(n);
  return n;
}

// Checks the skipping parse of `src` against the full one; returns the
// number of bodies skipped.
size_t CheckAgainstFullParse(const std::string& src, const std::string& label) {
  auto parser = NewPythonParser();
  ParsedModule full(parser.get(), src);
  ParsedModule skipping(parser.get(), src, BodyParsing::kSkipDefBodies);
  EXPECT_EQ(full.FirstSyntaxErrorLine(), skipping.FirstSyntaxErrorLine()) << label;
  if (full.FirstSyntaxErrorLine()) return skipping.skipped_bodies();
  size_t compared = 0;
  TSTreeCursor cursor = ts_tree_cursor_new(skipping.root());
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (kCompared.count(ts_node_type(n))) {
      TSNode f = FullNode(full.root(), ts_node_type(n), ts_node_start_byte(n));
      EXPECT_FALSE(ts_node_is_null(f))
          << label << ": " << ts_node_type(n) << " at line " << ParsedModule::FirstLine(n);
      if (!ts_node_is_null(f)) {
        EXPECT_EQ(full.Text(f), skipping.Text(n))
            << label << " line " << ParsedModule::FirstLine(n);
        EXPECT_EQ(full.LastLine(f), skipping.LastLine(n))
            << label << " line " << ParsedModule::FirstLine(n);
        ++compared;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor))
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
  }
  ts_tree_cursor_delete(&cursor);
  EXPECT_EQ(full.Text(full.root()), skipping.Text(skipping.root())) << label;
  // A module-level def's body, parsed when asked for, is the full parse's.
  for (uint32_t i = 0, c = ts_node_named_child_count(skipping.root()); i < c; ++i) {
    TSNode def = ts_node_named_child(skipping.root(), i);
    if (Is(def, "decorated_definition")) def = Field(def, "definition");
    if (!Is(def, "function_definition")) continue;
    TSNode f = FullNode(full.root(), "function_definition", ts_node_start_byte(def));
    ExpectSameSubtree(skipping.FunctionBody(def), Field(f, "body"),
                      label + " line " + std::to_string(ParsedModule::FirstLine(def)));
    EXPECT_EQ(full.Text(Field(f, "body")), skipping.Text(skipping.FunctionBody(def))) << label;
    EXPECT_EQ(full.LastLine(Field(f, "body")), skipping.LastLine(skipping.FunctionBody(def)))
        << label;
  }
  return skipping.skipped_bodies();
}

TEST(DefBodies, ExampleFilesParseAsInFull) {
  size_t files = 0, skipped = 0;
  for (const auto& e : fs::recursive_directory_iterator(testing::SourcePath("examples"))) {
    if (e.path().extension() != ".py") continue;
    std::string src = testing::ReadFile(e.path().string());
    auto parser = NewPythonParser();
    ParsedModule full(parser.get(), src);
    size_t n = CheckAgainstFullParse(src, e.path().string());
    // Every such body is skipped: the pre-pass gives up on none of them.
    EXPECT_EQ(n, full.FirstSyntaxErrorLine() ? 0 : DefsWithBlockBodies(full.root())) << e.path();
    skipped += n;
    ++files;
  }
  EXPECT_GT(files, 14u);
  EXPECT_GT(skipped, 100u);
}

TEST(DefBodies, LexicalCornersParseAsInFull) {
  struct Case {
    const char* what;
    std::string src;
    size_t skipped;
  };
  const Case cases[] = {
      {"plain", "class T:\n    def test_a(self):\n        x = 1  # c\n        return x\n", 1},
      {"decorated and async",
       "class T:\n    @dec(1,\n         2)\n    async def test_a(self):\n        await f()\n", 1},
      {"dedented string",
       "class T:\n    def test_a(self):\n        s = '''\nclass X:\n    def f(): pass\n'''\n"
       "        return s\n    def test_b(self):\n        pass\n",
       2},
      {"f-string nesting quotes",
       "class T:\n    def test_a(self):\n        s = f\"{d[\"k\"]:>{w}} {x!r} {{lit}}\"\n"
       "    def test_b(self):\n        pass\n",
       2},
      {"raw string and escapes",
       "class T:\n    def test_a(self):\n        r = r'\\'' + '\\\\' + \"\\\"\"\n"
       "        return r\n",
       1},
      {"continuations and brackets",
       "class T:\n    def test_a(self):\n        x = 1 + \\\n2\n        y = (\n3)\n"
       "    x = [1,\n2]\n",
       1},
      {"trailing comments and blank lines",
       "class T:\n    def test_a(self):\n        pass;\n\n  # low comment\n        # more\n\n"
       "    # between\n    def test_b(self): return 1\n",
       1},
      {"comment after the last token, then at column zero",
       "class T:\n    def test_a(self):\n        self.f(True)  # c\n# col zero\n\n"
       "    # between\n    def test_b(self):\n        x = (1,  # in brackets\n 2)\n",
       2},
      {"comment lines at the body's indent after it, then at the member's",
       "class T:\n    def test_a(self):\n        x = 1\n        # c1\n\n        # c2\n"
       "    # member\n        # not the body's\n    def test_b(self):\n        pass\n",
       2},
      {"comment lines after a nested block, deeper and at the body's indent",
       "class T:\n    def test_a(self):\n        if x:\n            y()\n            # deep\n"
       "        # body\n    def test_b(self):\n        pass\n          # deeper\n",
       2},
      {"module function with comment lines after it, then code",
       "def f():\n    return 1\n    # trailing\n\n      # deeper\nx = f()\n", 1},
      {"comment lines at the body's indent, crlf",
       "class T:\r\n    def test_a(self):\r\n        pass\r\n        # c\r\n\r\n"
       "    def test_b(self):\r\n        pass  # t\r\n        # c\r\n",
       2},
      {"comment line at the body's indent at the end, no newline",
       "def f():\n    return 1\n    # end", 1},
      {"one-line and nested class",
       "class T:\n    def f(self): return 1\n    class Inner:\n        def g(self):\n"
       "            pass\n",
       0},
      {"module function, with a nested def",
       "def gen():\n    def test_x(self):\n        pass\n    return test_x\n", 1},
      {"decorated module functions, one on one line",
       "@d(1)\ndef f(x):\n    \"\"\"doc\"\"\"\n    return [\n  x]\nasync def g(): return 2\n"
       "def h(\n  a,\n):\n    # c\n    return a  # t\n",
       2},
      {"module function, then a class with methods",
       "def f():\n    return 1\nclass T:\n    def test_a(self):\n        pass\n"
       "def g():\n    pass\n",
       3},
      {"module function body dedenting below its first line",
       "def f():\n        a = 1\n    b = 2\n", 0},
      {"docstring only", "class T:\n    def test_a(self):\n        \"\"\"Doc.\"\"\"\n", 1},
      {"syntax error in a signature",
       "class T:\n    def test_a(self:\n        pass\n    def test_b(self):\n        pass\n", 0},
      {"syntax error after a body", "class T:\n    def test_a(self):\n        pass\n    x = = 1\n",
       0},
      {"inconsistent dedent", "class T:\n    def test_a(self):\n            a = 1\n        b = 2\n",
       0},
      {"tab indentation", "class T:\n\tdef test_a(self):\n\t\tpass\n", 0},
      {"unterminated string", "class T:\n    def test_a(self):\n        s = 'abc\n", 0},
      {"no newline at the end", "class T:\n    def test_a(self):\n        pass", 1},
      {"comment at the end", "class T:\n    def test_a(self):\n        pass  # end", 1},
      {"crlf", "class T:\r\n    def test_a(self):\r\n        pass\r\n", 1},
  };
  for (const Case& c : cases) EXPECT_EQ(CheckAgainstFullParse(c.src, c.what), c.skipped) << c.what;
}

TEST(DefBodies, AModuleFunctionBodyWithASyntaxErrorIsNoBody) {
  // The file's parse skipped the body, so only the body's own parse sees
  // the error: no body rather than the placeholder (which would run as 0).
  std::string src = "def f():\n    x = = 1\n    return x\n\ndef g():\n    return 2\n";
  auto parser = NewPythonParser();
  ParsedModule m(parser.get(), src, BodyParsing::kSkipDefBodies);
  ASSERT_EQ(m.skipped_bodies(), 2u);
  EXPECT_FALSE(m.FirstSyntaxErrorLine());
  TSNode f = ts_node_named_child(m.root(), 0), g = ts_node_named_child(m.root(), 1);
  EXPECT_FALSE(m.LazySyntaxErrorLine());
  EXPECT_TRUE(ts_node_is_null(m.FunctionBody(f)));
  EXPECT_EQ(m.LazySyntaxErrorLine(), 2);  // the full parse's line
  ASSERT_FALSE(ts_node_is_null(m.FunctionBody(g)));
  EXPECT_EQ(m.Text(m.FunctionBody(g)), "return 2");
}

// A fuzz finding (data/dedent_to_column_zero.py, also a fuzz seed): a
// method's line starting at column zero (`&`), which ends the method's
// body for the line pre-pass. Parsed with the bodies left out by included
// ranges, tree-sitter 0.20.7's error recovery loops at the edge of a range,
// allocating gigabytes (`testmap scan` hung): the skeleton's parse gives up
// at a tenth of the time limit and the full parse answers, at the line
// CPython gives.
TEST(DefBodies, ALineAtColumnZeroInAMethodIsParsedInFullWhenTheSkeletonLoops) {
  const std::string src = testing::ReadFile(
      testing::SourcePath("tests/analyzers/python/data/dedent_to_column_zero.py"));
  ASSERT_EQ(FindDefBodies(src).size(), 1u);
  const auto limit = std::chrono::microseconds(ParseTimeLimitMicros(src.size()));
  auto parser = NewPythonParser();
  auto start = std::chrono::steady_clock::now();
  ParsedModule m(parser.get(), src, BodyParsing::kSkipDefBodies);
  auto took = std::chrono::steady_clock::now() - start;
  EXPECT_EQ(m.FirstSyntaxErrorLine(), 7);
  EXPECT_EQ(m.skipped_bodies(), 0u);
  EXPECT_LT(took, limit / 2) << "the skeleton's parse ran past a tenth of the limit";
  EXPECT_EQ(CheckAgainstFullParse(src, "column zero in a method"), 0u);
}

// A parse past its time limit throws, and the parser that ran it parses
// the next file from its start (tree-sitter would otherwise resume the
// timed-out parse).
TEST(ParsedModule, AParsePastItsTimeLimitThrowsAndTheParserGoesOn) {
  std::string big = "x = [\n";
  while (big.size() < (4u << 20)) big += "    (1, 'a', [2.5, None]),\n";
  big += "]\n";
  auto parser = NewPythonParser();
  for (BodyParsing mode : {BodyParsing::kFull, BodyParsing::kSkipDefBodies}) {
    try {
      ParsedModule m(parser.get(), big, mode, /*limit_micros=*/1);
      ADD_FAILURE() << "a 4 MB parse finished within 1 us";
    } catch (const ParseTimeout& e) {
      EXPECT_STREQ(e.what(), "tree-sitter did not finish parsing it within 0 ms; not analysed");
    }
    ParsedModule next(parser.get(), "def test_a():\n    pass\n", mode);
    EXPECT_FALSE(next.FirstSyntaxErrorLine());
    EXPECT_EQ(std::string(next.Text(next.root())), "def test_a():\n    pass\n");
    EXPECT_EQ(ts_node_named_child_count(next.root()), 1u);
  }
}

// Each skipped body is a range tree-sitter's lexer searches from the first
// on every token (python_parser.cc), so thousands of small bodies cost more
// skipped than parsed: a class of 16,000 two-line methods, all skipped, was
// scanned in 0.50 s, 64,000 in about 8 s; parsed whole, in 0.21 s and
// 0.90 s. Such a class is parsed whole, and a few large bodies among many
// small ones are still skipped.
TEST(ParsedModule, ThousandsOfSmallBodiesAreParsedAndLargeOnesSkipped) {
  std::string many = "import unittest\n\nclass TestBig(unittest.TestCase):\n";
  for (int i = 0; i < 16000; ++i)
    many += "    def test_m" + std::to_string(i) + "(self):\n        x = " + std::to_string(i) +
            "\n        self.assertEqual(x, 1)\n\n";
  auto parser = NewPythonParser();
  ASSERT_EQ(FindDefBodies(many).size(), 16000u);
  {
    ParsedModule m(parser.get(), many, BodyParsing::kSkipDefBodies);
    EXPECT_EQ(m.skipped_bodies(), 0u);
  }
  // Ten methods of 20 KB each at the end: skipping them saves most of the
  // parse, the ranges cost little.
  std::string mixed = many;
  for (int i = 0; i < 10; ++i) {
    mixed += "    def test_large" + std::to_string(i) + "(self):\n";
    for (int k = 0; k < 500; ++k)
      mixed += "        y = torch.ones(3, 4) + " + std::to_string(k) + "\n";
    mixed += "\n";
  }
  ParsedModule m(parser.get(), mixed, BodyParsing::kSkipDefBodies);
  EXPECT_EQ(m.skipped_bodies(), 10u);
  EXPECT_EQ(CheckAgainstFullParse(mixed, "many small bodies and ten large"), 10u);
  // A few small bodies alone are all skipped (the example files' case).
  EXPECT_EQ(CheckAgainstFullParse(many.substr(0, many.find("    def test_m100(")), "100 small"),
            100u);
}

TEST(DefBodies, BodyBoundsAreItsFirstTokenAndLastTokenOrComment) {
  std::string src = "class T:\n    def f(self):\n        a = 1\n        b = 2  # x\n\nx = 1\n";
  auto bodies = FindDefBodies(src);
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(src.substr(bodies[0].begin, bodies[0].end - bodies[0].begin),
            "a = 1\n        b = 2  # x");
  EXPECT_EQ(bodies[0].end_row, 3);

  // Comment lines as deep as the body are its own, up to one that is not.
  src = "def f():\n    a = 1\n\n    # one\n      # two\n  # not\n    # not\nx = 1\n";
  bodies = FindDefBodies(src);
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(src.substr(bodies[0].begin, bodies[0].end - bodies[0].begin),
            "a = 1\n\n    # one\n      # two");
  EXPECT_EQ(bodies[0].end_row, 4);
}

}  // namespace
}  // namespace testmap::python
