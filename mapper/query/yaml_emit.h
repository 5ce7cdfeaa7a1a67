// Writes a JSON document as block-style YAML, for `--format yaml`. Strings
// are emitted JSON-quoted (a JSON string is a valid YAML scalar), so no
// value can be misread as a number, a bool or a YAML tag.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace testmap::query {

void EmitYaml(const nlohmann::json& doc, std::ostream& out);

}  // namespace testmap::query
