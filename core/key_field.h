// What may stand in one field of an index key (a node id, an operator
// overload, a run, a timing's job) or in one item of an edge value (a
// device, a dtype). Index keys join their fields with '\0' and edge values
// separate theirs with '\t', '\n' and ',' (indexer/index_layout.h,
// indexer/edge_value.h): a field holding one of those bytes would split
// into two on reading, and one bad record would make the whole index fail
// `index verify`. So every field is checked here before it is stored, and
// input that fails is refused with its file and line.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace testmap::core {

// The longest field: node ids of real PyTorch tests stay under 400 bytes;
// 8 KiB leaves room for long parametrize ids while keeping one key small.
inline constexpr size_t kMaxKeyFieldBytes = 8 * 1024;

// The offset of the first byte of `s` that is not valid UTF-8 (overlong
// forms and surrogates included), or nullopt when all of it is.
std::optional<size_t> FirstInvalidUtf8(std::string_view s);

// Why `field` cannot be a key field, or nullopt when it can: empty (when
// `allow_empty` is false), longer than kMaxKeyFieldBytes, not UTF-8, or
// holding a control character (U+0000 to U+001F, U+007F: NUL is the key
// separator, tab and newline the value separators, and no test, operator
// or device name has any of them). The reason names the byte offset.
std::optional<std::string> KeyFieldProblem(std::string_view field, bool allow_empty = false);

// The same for an item of a list in an edge value (a dtype, a device):
// additionally no ','.
std::optional<std::string> ValueItemProblem(std::string_view item);

// `field` for a message: quoted in backticks, cut at 60 bytes, control and
// non-ASCII bytes as \xNN, so a message never carries a NUL or a newline.
std::string ShownField(std::string_view field);

// Throws InputError(file, line, "WHAT `FIELD` REASON") when `field` fails
// KeyFieldProblem. The field is quoted, cut and escaped in the message.
void CheckKeyField(std::string_view field, const char* what, const std::string& file, int line,
                   bool allow_empty = false);

// The same for ValueItemProblem.
void CheckValueItem(std::string_view item, const char* what, const std::string& file, int line);

}  // namespace testmap::core
