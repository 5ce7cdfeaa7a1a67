// A unified diff (`diff -u` format, 3 lines of context) of a text whose
// lines were edited in place or deleted: what `diff --config` proposes as
// a config patch. The edits are known line by line, so no alignment
// search is needed.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace testmap::diff {

// The lines of `text` (without their newlines; a final newline ends the
// last line rather than starting an empty one).
std::vector<std::string> SplitLines(const std::string& text);

// `edited[i]` is what old line i became: nullopt for deleted, else its new
// text. "" when nothing changed. `path` names both sides (a/ and b/).
std::string UnifiedDiff(const std::string& path, const std::vector<std::string>& old_lines,
                        const std::vector<std::optional<std::string>>& edited);

}  // namespace testmap::diff
