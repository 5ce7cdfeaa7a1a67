#include "mapper/yaml/yaml_emit.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>

namespace testmap::yaml {
namespace {

bool IsScalar(const nlohmann::json& j) { return !(j.is_object() || j.is_array()); }

void Emit(const nlohmann::json& j, YAML::Emitter& out) {
  if (j.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [k, v] : j.items()) {
      out << YAML::Key << YAML::DoubleQuoted << k << YAML::Value;
      Emit(v, out);
    }
    out << YAML::EndMap;
  } else if (j.is_array()) {
    bool flow = j.empty() || std::all_of(j.begin(), j.end(), IsScalar);
    out << (flow ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
    for (const auto& v : j) Emit(v, out);
    out << YAML::EndSeq;
  } else if (j.is_string()) {
    out << YAML::DoubleQuoted << j.get<std::string>();
  } else if (j.is_null()) {
    out << YAML::Null;
  } else if (j.is_boolean()) {
    out << j.get<bool>();
  } else {
    out << j.dump();  // numbers exactly as JSON writes them (shortest round trip)
  }
}

}  // namespace

void EmitYaml(const nlohmann::json& doc, std::ostream& out) {
  YAML::Emitter emitter;
  emitter << YAML::BeginDoc;
  Emit(doc, emitter);
  out << emitter.c_str() << "\n";
}

}  // namespace testmap::yaml
