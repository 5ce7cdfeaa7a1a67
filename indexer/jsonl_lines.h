// Strict JSON Lines iteration shared by the input readers: every non-blank
// line must be one JSON object. A last line without its newline that does
// not parse is reported as truncated (a writer died mid-line), anything
// else that does not parse as corrupt; both name the file and line.
#pragma once

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace testmap::indexer {

// Calls `fn(object, line_number, raw_line)` for each record. Throws
// core::InputError(path, line, ...) for a line that is not a JSON object.
void ForEachJsonLine(const std::string& text, const std::string& path,
                     const std::function<void(const nlohmann::json&, int, std::string_view)>& fn);

// The first non-blank line parsed, or a null json when it does not parse.
nlohmann::json FirstJsonLine(const std::string& text);

}  // namespace testmap::indexer
