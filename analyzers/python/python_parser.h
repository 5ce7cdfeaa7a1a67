// A parsed Python file: the source bytes and their tree-sitter tree, with
// the few helpers the analysis needs. Parsing never runs the code.
#pragma once

#include <tree_sitter/api.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace testmap::python {

class ParsedModule {
 public:
  // Parses `source` (UTF-8). `parser` is reused across files by a thread.
  ParsedModule(TSParser* parser, std::string source);
  ~ParsedModule();
  ParsedModule(const ParsedModule&) = delete;
  ParsedModule& operator=(const ParsedModule&) = delete;

  TSNode root() const { return ts_tree_root_node(tree_); }
  const std::string& source() const { return source_; }

  std::string_view Text(TSNode n) const {
    return std::string_view(source_).substr(ts_node_start_byte(n),
                                            ts_node_end_byte(n) - ts_node_start_byte(n));
  }
  // 1-based first and last line of a node.
  static int FirstLine(TSNode n) { return static_cast<int>(ts_node_start_point(n).row) + 1; }
  static int LastLine(TSNode n) { return static_cast<int>(ts_node_end_point(n).row) + 1; }

  // The line of the first syntax error (ERROR or MISSING node), if any.
  // Whether the syntax tree nests deeper than `limit` levels, found
  // without recursion: the analysis walks trees recursively, so a file
  // nested absurdly deep (Python itself refuses 200 nested brackets) is
  // refused before any walk rather than overflowing the stack.
  bool DeeperThan(uint32_t limit) const;
  std::optional<int> FirstSyntaxErrorLine() const;

 private:
  std::string source_;
  TSTree* tree_;
};

// A TSParser set up for Python; one per thread.
struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};
std::unique_ptr<TSParser, ParserDeleter> NewPythonParser();

// Node helpers over tree-sitter's C API.
inline bool Is(TSNode n, std::string_view type) {
  return !ts_node_is_null(n) && type == ts_node_type(n);
}
inline TSNode Field(TSNode n, std::string_view name) {
  return ts_node_child_by_field_name(n, name.data(), static_cast<uint32_t>(name.size()));
}

// Returns where UTF-8 decoding fails in `bytes` (byte offset), if it does
// (core::FirstInvalidUtf8, the one decoder check).
std::optional<size_t> FirstInvalidUtf8(std::string_view bytes);

}  // namespace testmap::python
