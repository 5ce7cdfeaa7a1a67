// Children, NamedChildren and AnyNode (python_parser.h) against tree-sitter's
// own ts_node_child / ts_node_named_child and a recursive walk, on every
// node of every example file and of sources that exercise hidden nodes,
// comments, aliases and syntax errors.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "analyzers/python/python_parser.h"
#include "tests/support/temp_dir.h"

namespace testmap::python {
namespace {

namespace fs = std::filesystem;

// By index, as tree-sitter defines them (quadratic, but the truth).
std::vector<TSNode> ChildrenByIndex(TSNode n, bool named) {
  std::vector<TSNode> out;
  uint32_t count = named ? ts_node_named_child_count(n) : ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i)
    out.push_back(named ? ts_node_named_child(n, i) : ts_node_child(n, i));
  return out;
}

void ExpectSameNodes(const std::vector<TSNode>& a, const std::vector<TSNode>& b,
                     const std::string& label) {
  ASSERT_EQ(a.size(), b.size()) << label;
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(ts_node_eq(a[i], b[i])) << label << " #" << i;
}

// Whether a named node under `n` (or `n`) has `type`, by recursion over
// named children: what AnyNode replaced in the evaluator.
bool MentionsByRecursion(TSNode n, const char* type) {
  if (Is(n, type)) return true;
  for (TSNode c : ChildrenByIndex(n, true))
    if (MentionsByRecursion(c, type)) return true;
  return false;
}

// Checks every node of `src`; returns how many were compared.
size_t CheckEveryNode(const std::string& src, const std::string& label) {
  auto parser = NewPythonParser();
  ParsedModule m(parser.get(), src);
  size_t nodes = 0;
  std::vector<TSNode> stack{m.root()};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    ++nodes;
    std::string where =
        label + " line " + std::to_string(ParsedModule::FirstLine(n)) + " " + ts_node_type(n);
    ExpectSameNodes(Children(n), ChildrenByIndex(n, false), where);
    ExpectSameNodes(NamedChildren(n), ChildrenByIndex(n, true), where);
    for (const char* type : {"identifier", "call", "comment", "ERROR"})
      EXPECT_EQ(AnyNode(n, [&](TSNode d) { return Is(d, type); }), MentionsByRecursion(n, type))
          << where << " " << type;
    for (TSNode c : ChildrenByIndex(n, false)) stack.push_back(c);
  }
  return nodes;
}

TEST(NodeChildren, EveryNodeOfTheExamplesHasTreeSittersChildren) {
  size_t files = 0, nodes = 0;
  for (const auto& e : fs::recursive_directory_iterator(testing::SourcePath("examples"))) {
    if (e.path().extension() != ".py") continue;
    nodes += CheckEveryNode(testing::ReadFile(e.path().string()), e.path().string());
    ++files;
  }
  EXPECT_GT(files, 14u);
  EXPECT_GT(nodes, 10000u);
}

TEST(NodeChildren, HiddenNodesCommentsAndErrors) {
  // Hidden rules (_simple_statements, _compound_statement), aliased
  // keywords used as names, comments between arguments, a chained
  // comparison, a slice and a syntax error.
  CheckEveryNode(
      "import a.b as c, d  # two\n"
      "x = 1; y = 2; del x, y\n"
      "print(match, type)  # soft keywords as names\n"
      "f(a,  # one\n"
      "  *b, **c)\n"
      "ok = 1 < x <= 3 is not None\n"
      "z = w[1:2:3]\n"
      "class A(B, metaclass=M):\n"
      "    '''doc'''\n"
      "    @dec(1)\n"
      "    @other\n"
      "    def f(self, a, *rest, k=1, **kw): pass\n"
      "def broken(:\n"
      "    return (\n",
      "corners");
}

TEST(NodeChildren, AnyNodeOfANullNodeIsFalse) {
  EXPECT_FALSE(AnyNode(TSNode{}, [](TSNode) { return true; }));
  EXPECT_TRUE(Children(TSNode{}).empty());
  EXPECT_TRUE(NamedChildren(TSNode{}).empty());
}

}  // namespace
}  // namespace testmap::python
