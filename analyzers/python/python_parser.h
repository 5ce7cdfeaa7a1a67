// A parsed Python file: the source bytes and their tree-sitter tree, with
// the few helpers the analysis needs. Parsing never runs the code.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "analyzers/python/def_bodies.h"

namespace testmap::python {

// What of a file tree-sitter parses.
enum class BodyParsing {
  kFull,
  // The bodies of module-level functions and of top-level classes'
  // methods are not parsed (def_bodies.h; FunctionBody parses one when
  // it is needed): the tree has a placeholder statement there, and Text()
  // and LastLine() of a node that ends in one answer as the full parse does. Parses the whole file
  // when the placeholders cannot all be confirmed in the tree, or when it has a syntax error (whose
  // line is then the full parse's). A syntax error inside such a body is not seen.
  kSkipDefBodies,
};

// The time a parse of `bytes` may take: 2 s and 4 us a byte, in whole
// seconds (python_parser.cc says why). Some 20 times what tree-sitter needs
// for real Python (about 200 ns a byte here), so no real file comes near
// it; its error recovery can loop on some malformed input, growing without
// bound, which no answer is worth.
uint64_t ParseTimeLimitMicros(size_t bytes);

// A parse ran past its time limit; what() says so, for the file's
// diagnostic.
class ParseTimeout : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class ParsedModule {
 public:
  // Parses `source` (UTF-8). `parser` is reused across files by a thread.
  // Throws ParseTimeout past `limit_micros` (default ParseTimeLimitMicros
  // of the source's size), as FunctionBody does when its parse runs past it.
  // A kSkipDefBodies parse past a tenth of it in whole seconds (at most all
  // of it) is given up for the full one.
  ParsedModule(TSParser* parser, std::string source, BodyParsing mode = BodyParsing::kFull,
               std::optional<uint64_t> limit_micros = std::nullopt);
  ~ParsedModule();
  ParsedModule(const ParsedModule&) = delete;
  ParsedModule& operator=(const ParsedModule&) = delete;

  TSNode root() const { return ts_tree_root_node(tree_); }
  const std::string& source() const { return source_; }

  std::string_view Text(TSNode n) const {
    uint32_t begin = ts_node_start_byte(n);
    return std::string_view(source_).substr(begin, EndByte(n) - begin);
  }
  // 1-based first and last line of a node.
  static int FirstLine(TSNode n) { return static_cast<int>(ts_node_start_point(n).row) + 1; }
  int LastLine(TSNode n) const {
    const DefBody* b = n.tree == tree_ ? Skipped(ts_node_end_byte(n)) : nullptr;
    return (b ? b->end_row : static_cast<int>(ts_node_end_point(n).row)) + 1;
  }
  // Where a node ends in the source, as in the full parse (use it rather
  // than ts_node_end_byte: a node may end in a skipped body's placeholder).
  uint32_t EndByte(TSNode n) const {
    const DefBody* b = n.tree == tree_ ? Skipped(ts_node_end_byte(n)) : nullptr;
    return b ? static_cast<uint32_t>(b->end) : ts_node_end_byte(n);
  }
  // How many bodies were left unparsed (BodyParsing::kSkipDefBodies).
  size_t skipped_bodies() const { return skipped_.size(); }
  // The body of a function definition: for a module-level def whose body
  // was skipped, that body parsed now, once (its nodes are of another tree
  // but have the source's bytes and lines, as in the full parse), or a null
  // node if it has a syntax error. Module code calls few of its functions,
  // and most files none.
  TSNode FunctionBody(TSNode def) const;
  // The first line of a syntax error in a body FunctionBody parsed, if any.
  std::optional<int> LazySyntaxErrorLine() const;

  // The line of the first syntax error (ERROR or MISSING node), if any.
  // Whether the syntax tree nests deeper than `limit` levels, found
  // without recursion: the analysis walks trees recursively, so a file
  // nested absurdly deep (Python itself refuses 200 nested brackets) is
  // refused before any walk rather than overflowing the stack.
  bool DeeperThan(uint32_t limit) const;
  std::optional<int> FirstSyntaxErrorLine() const;

 private:
  // The skipped body whose placeholder ends at byte `end`, if any.
  const DefBody* Skipped(uint32_t end) const;
  bool PlaceholdersConfirmed() const;

  std::string source_;
  uint64_t limit_micros_;
  TSTree* tree_ = nullptr;
  std::vector<DefBody> skipped_;  // sorted by begin
  mutable std::mutex lazy_mu_;
  mutable std::map<size_t, TSTree*> lazy_;  // FunctionBody's trees by body begin
  mutable std::optional<int> lazy_error_line_;
};

// A TSParser set up for Python; one per thread.
struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
std::unique_ptr<TSParser, ParserDeleter> NewPythonParser();

// Node helpers over tree-sitter's C API.
inline bool Is(TSNode n, std::string_view type) {
  if (ts_node_is_null(n)) return false;
  // Compared without measuring the node's type first: most calls differ
  // at the first byte.
  const char* t = ts_node_type(n);
  return std::strncmp(t, type.data(), type.size()) == 0 && t[type.size()] == '\0';
}
// The children, or the named children, of `n` in order, found in one walk.
// ts_node_child(n, i) and ts_node_named_child(n, i) walk from the first
// child on every call, so a loop over them is quadratic in the children: a
// class of 16,000 methods took 0.52 s to scan where 0.08 s is linear.
std::vector<TSNode> Children(TSNode n);
std::vector<TSNode> NamedChildren(TSNode n);
// Whether `n` or a node under it satisfies `pred`, visited in source order
// by one cursor (no list of children per node).
template <class Pred>
bool AnyNode(TSNode n, Pred pred) {
  // `n` itself first: a cursor started at a node does not know the alias
  // its parent gives it (`match` as an identifier), only its descendants'.
  if (ts_node_is_null(n)) return false;
  if (pred(n)) return true;
  TSTreeCursor c = ts_tree_cursor_new(n);
  bool found = false;
  for (uint32_t depth = 0;;) {
    if (ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
    } else {
      while (depth > 0 && !ts_tree_cursor_goto_next_sibling(&c)) {
        ts_tree_cursor_goto_parent(&c);
        --depth;
      }
      if (depth == 0) break;
    }
    if (pred(ts_tree_cursor_current_node(&c))) {
      found = true;
      break;
    }
  }
  ts_tree_cursor_delete(&c);
  return found;
}
// The grammar's id of a field name (0 for none), looked up in a table
// made once: tree-sitter's own lookup compares the name with each field's.
TSFieldId PythonFieldId(std::string_view name);
inline TSNode Field(TSNode n, std::string_view name) {
  TSFieldId id = PythonFieldId(name);
  return id ? ts_node_child_by_field_id(n, id) : TSNode{};
}

// Returns where UTF-8 decoding fails in `bytes` (byte offset), if it does
// (core::FirstInvalidUtf8, the one decoder check).
std::optional<size_t> FirstInvalidUtf8(std::string_view bytes);

}  // namespace testmap::python
