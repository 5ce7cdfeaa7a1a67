// Writes a JSON document as block-style YAML, for every `--format yaml`
// (query, show, ops, admit), through yaml-cpp's emitter. Strings and keys
// are double-quoted (a JSON string is a valid YAML scalar that way), so no
// value can be misread as a number, a bool, null or a tag; short lists of
// scalars are written in flow style.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace testmap::yaml {

void EmitYaml(const nlohmann::json& doc, std::ostream& out);

}  // namespace testmap::yaml
