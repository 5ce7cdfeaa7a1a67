#include "analyzers/python/source_hash.h"

#include "analyzers/python/content_hash.h"

namespace testmap::python {

std::string NormalizedSourceHash(const ParsedModule& module, TSNode node) {
  ContentHasher hasher;
  TSTreeCursor cursor = ts_tree_cursor_new(node);
  // Pre-order walk over leaves; a separator keeps `a b` apart from `ab`.
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    bool is_comment = Is(n, "comment");
    if (!is_comment && ts_node_child_count(n) == 0) {
      hasher.Update(module.Text(n));
      hasher.Update("\x1f");
    }
    // Strings keep their inner whitespace: string_content is a leaf whose
    // text includes it, so formatting outside strings is all that is lost.
    if (!is_comment && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else if (!ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return HexDigest(hasher.Digest());
      }
    }
  }
}

}  // namespace testmap::python
