// How deep JSON text nests, counted without parsing it: the check every
// reader makes before handing a record to a parser or a serializer that
// recurses (nlohmann-json's dump, error messages that quote a value), so that
// no input can overflow the stack. Records of every testmap format nest a
// few levels; anything past kMaxJsonRecordDepth is refused, at its line.
#pragma once

#include <string_view>

namespace testmap::core {

// The deepest nesting a JSON record (a scan record, a backend record, an
// MCP message) may have.
inline constexpr int kMaxJsonRecordDepth = 64;

// The deepest nesting of arrays and objects in `text`, counted outside
// strings; stops counting (and returns) once past `limit`.
int JsonDepth(std::string_view text, int limit);

}  // namespace testmap::core
