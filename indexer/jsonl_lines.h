// Strict JSON Lines iteration for the scan reader: every non-blank line
// must be one JSON object (core/jsonl_lines.h splits the lines). A last
// line cut short is dropped with a warning, as in every reader; anything
// else that does not parse is corrupt, named with file and line.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace testmap::indexer {

// Calls `fn(object, line_number, raw_line)` for each record. Throws
// core::InputError(path, line, ...) for a line that is not a JSON object;
// a cut-short last line goes to `warnings` when given.
void ForEachJsonLine(const std::string& text, const std::string& path,
                     const std::function<void(const nlohmann::json&, int, std::string_view)>& fn,
                     std::vector<std::string>* warnings = nullptr);

// The first non-blank line parsed, or a null json when it does not parse.
nlohmann::json FirstJsonLine(const std::string& text);

}  // namespace testmap::indexer
