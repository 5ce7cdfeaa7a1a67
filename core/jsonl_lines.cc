#include "core/jsonl_lines.h"

namespace testmap::core {

void ForEachJsonlLine(std::string_view text, const std::function<void(const JsonlLine&)>& fn) {
  size_t pos = 0;
  int number = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    bool has_newline = end != std::string_view::npos;
    if (!has_newline) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    fn({line, number, !has_newline});
  }
}

}  // namespace testmap::core
