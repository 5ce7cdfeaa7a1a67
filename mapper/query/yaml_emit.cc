#include "mapper/query/yaml_emit.h"

#include <string>

namespace testmap::query {
namespace {

bool IsScalar(const nlohmann::json& j) { return !(j.is_object() || j.is_array()) || j.empty(); }

std::string Scalar(const nlohmann::json& j) {
  if (j.is_object()) return "{}";
  if (j.is_array()) return "[]";
  return j.dump();  // strings quoted, numbers, true/false, null
}

void Emit(const nlohmann::json& j, int indent, std::ostream& out) {
  std::string pad(indent, ' ');
  if (j.is_object()) {
    for (const auto& [k, v] : j.items()) {
      out << pad << nlohmann::json(k).dump() << ":";
      if (IsScalar(v)) {
        out << " " << Scalar(v) << "\n";
      } else {
        out << "\n";
        Emit(v, indent + 2, out);
      }
    }
  } else if (j.is_array()) {
    for (const auto& v : j) {
      if (IsScalar(v)) {
        out << pad << "- " << Scalar(v) << "\n";
      } else if (v.is_array() && std::all_of(v.begin(), v.end(), IsScalar)) {
        out << pad << "- " << v.dump() << "\n";  // flow style for short lists
      } else {
        out << pad << "-\n";
        Emit(v, indent + 2, out);
      }
    }
  } else {
    out << pad << Scalar(j) << "\n";
  }
}

}  // namespace

void EmitYaml(const nlohmann::json& doc, std::ostream& out) {
  out << "---\n";
  if (IsScalar(doc)) {
    out << Scalar(doc) << "\n";
  } else {
    Emit(doc, 0, out);
  }
}

}  // namespace testmap::query
