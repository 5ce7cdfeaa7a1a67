#include "analyzers/python/python_parser.h"

#include <stdexcept>

#include "core/key_field.h"

extern "C" const TSLanguage* tree_sitter_python();

namespace testmap::python {

std::unique_ptr<TSParser, ParserDeleter> NewPythonParser() {
  std::unique_ptr<TSParser, ParserDeleter> p(ts_parser_new());
  if (!ts_parser_set_language(p.get(), tree_sitter_python()))
    throw std::runtime_error("tree-sitter-python grammar is incompatible with the runtime");
  return p;
}

ParsedModule::ParsedModule(TSParser* parser, std::string source) : source_(std::move(source)) {
  tree_ = ts_parser_parse_string(parser, nullptr, source_.data(),
                                 static_cast<uint32_t>(source_.size()));
  if (!tree_) throw std::runtime_error("tree-sitter failed to parse");
}

ParsedModule::~ParsedModule() { ts_tree_delete(tree_); }

std::optional<int> ParsedModule::FirstSyntaxErrorLine() const {
  TSNode n = root();
  if (!ts_node_has_error(n)) return std::nullopt;
  // Descend towards the first erroneous node, so the line is the one a
  // person would look at rather than the enclosing block's first line.
  for (;;) {
    if (ts_node_is_missing(n) || Is(n, "ERROR")) return FirstLine(n);
    bool descended = false;
    for (uint32_t i = 0, c = ts_node_child_count(n); i < c; ++i) {
      TSNode child = ts_node_child(n, i);
      if (ts_node_has_error(child) || ts_node_is_missing(child)) {
        n = child;
        descended = true;
        break;
      }
    }
    if (!descended) return FirstLine(n);
  }
}

bool ParsedModule::DeeperThan(uint32_t limit) const {
  // Every level of nesting below a node spends at least one byte of its
  // text, give or take a few nodes of the same span (statement, call,
  // argument list...): a subtree cannot be deeper than 6x its length plus
  // a few. Subtrees too short to reach the limit are not walked, so the
  // check costs little more than visiting the file's largest nodes.
  auto may_reach = [&](TSNode n, uint32_t depth) {
    uint64_t span = ts_node_end_byte(n) - ts_node_start_byte(n);
    return depth + 6 * span + 8 > limit;
  };
  TSTreeCursor cursor = ts_tree_cursor_new(root());
  uint32_t depth = 0;
  bool deeper = false;
  for (;;) {
    if (may_reach(ts_tree_cursor_current_node(&cursor), depth) &&
        ts_tree_cursor_goto_first_child(&cursor)) {
      if (++depth > limit) {
        deeper = true;
        break;
      }
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return false;
      }
      --depth;
    }
  }
  ts_tree_cursor_delete(&cursor);
  return deeper;
}

std::optional<size_t> FirstInvalidUtf8(std::string_view s) { return core::FirstInvalidUtf8(s); }

}  // namespace testmap::python
