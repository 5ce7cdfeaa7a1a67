#include "indexer/jsonl_lines.h"

#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/json_depth.h"
#include "core/jsonl_lines.h"

namespace testmap::indexer {

void ForEachJsonLine(const std::string& text, const std::string& path,
                     const std::function<void(const nlohmann::json&, int, std::string_view)>& fn,
                     std::vector<std::string>* warnings) {
  bool stop = false;
  core::ForEachJsonlLine(text, [&](const core::JsonlLine& line) {
    if (stop) return;
    // Before the parser: what it builds is dumped and quoted recursively.
    if (core::JsonDepth(line.text, core::kMaxJsonRecordDepth) > core::kMaxJsonRecordDepth)
      throw core::InputError(path, line.number,
                             "record nested deeper than " +
                                 std::to_string(core::kMaxJsonRecordDepth) +
                                 " levels (the limit of a record)");
    nlohmann::json record = nlohmann::json::parse(line.text, nullptr, /*allow_exceptions=*/false);
    if (record.is_discarded()) {
      if (line.last_without_newline) {
        // A writer cut short (a full disk, a killed `testmap scan > f`):
        // what came before it stands.
        if (warnings)
          warnings->push_back(path + ":" + std::to_string(line.number) +
                              ": last line cut short (no newline, not complete JSON): ignored");
        stop = true;
        return;
      }
      std::string excerpt(line.text.substr(0, 60));
      throw core::InputError(
          path, line.number,
          "corrupt record, not JSON: '" + excerpt + (line.text.size() > 60 ? "...'" : "'"));
    }
    if (!record.is_object())
      throw core::InputError(path, line.number, "record is not a JSON object");
    fn(record, line.number, line.text);
  });
}

nlohmann::json FirstJsonLine(const std::string& text) {
  nlohmann::json first;
  bool found = false;
  core::ForEachJsonlLine(text, [&](const core::JsonlLine& line) {
    if (found) return;
    found = true;
    if (core::JsonDepth(line.text, core::kMaxJsonRecordDepth) <= core::kMaxJsonRecordDepth)
      first = nlohmann::json::parse(line.text, nullptr, false);
  });
  return first;
}

}  // namespace testmap::indexer
