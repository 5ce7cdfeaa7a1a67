// Splitting JSON Lines text (trace shards, scan output) into numbered lines,
// with the one rule for a last line cut short: a writer that died mid-line
// leaves a final line without its newline; readers drop that line (and
// warn) when it does not parse, instead of refusing everything before it.
#pragma once

#include <functional>
#include <string_view>

namespace testmap::core {

struct JsonlLine {
  std::string_view text;  // without the newline
  int number = 0;         // 1-based
  bool last_without_newline = false;
};

// Calls `fn` for each non-blank line of `text`, in order.
void ForEachJsonlLine(std::string_view text, const std::function<void(const JsonlLine&)>& fn);

}  // namespace testmap::core
