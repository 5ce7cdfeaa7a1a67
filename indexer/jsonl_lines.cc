#include "indexer/jsonl_lines.h"

#include <nlohmann/json.hpp>

#include "core/errors.h"

namespace testmap::indexer {

void ForEachJsonLine(const std::string& text, const std::string& path,
                     const std::function<void(const nlohmann::json&, int, std::string_view)>& fn) {
  size_t pos = 0;
  int line_number = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    bool has_newline = end != std::string::npos;
    if (!has_newline) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    nlohmann::json record = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded()) {
      if (!has_newline) {
        throw core::InputError(
            path, line_number,
            "truncated record (the line ends without a newline and is not complete "
            "JSON: the writer was cut short)");
      }
      std::string excerpt(line.substr(0, 60));
      throw core::InputError(
          path, line_number,
          "corrupt record, not JSON: '" + excerpt + (line.size() > 60 ? "...'" : "'"));
    }
    if (!record.is_object())
      throw core::InputError(path, line_number, "record is not a JSON object");
    fn(record, line_number, line);
  }
}

nlohmann::json FirstJsonLine(const std::string& text) {
  size_t pos = 0;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + pos, end - pos);
    pos = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    return nlohmann::json::parse(line, nullptr, false);
  }
  return nullptr;
}

}  // namespace testmap::indexer
