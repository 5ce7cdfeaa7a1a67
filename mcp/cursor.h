// Page cursors: opaque to clients (docs/mcp.md tells them to pass
// `page.next_cursor` back unchanged), checked by the server. A cursor
// names the question it continues (a digest of the tool and its other
// arguments), the index generation it was cut from and the offset, so
// a cursor used with another question, or after a later ingest changed the
// answer, is refused (-32602) instead of silently paging a different list.
#pragma once

#include <cstdint>
#include <string>

namespace testmap::mcp {

struct Cursor {
  std::string question;  // 16 hex digits
  uint64_t generation = 0;
  uint64_t offset = 0;
};

std::string EncodeCursor(const Cursor& cursor);

// Throws RpcError(kInvalidParams) for text that is no cursor of `question`
// or of `generation`.
Cursor DecodeCursor(const std::string& text, const std::string& question, uint64_t generation);

}  // namespace testmap::mcp
