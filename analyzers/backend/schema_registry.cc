#include "analyzers/backend/schema_registry.h"

#include <stdexcept>

namespace testmap::backend {
namespace {

SchemaArgument Argument(const nlohmann::json& a) {
  SchemaArgument s;
  s.name = a.at("name");
  s.type = a.at("type");
  s.is_out = a.value("is_out", false);
  s.kwarg_only = a.value("kwarg_only", false);
  s.is_write = a.value("is_write", false);
  s.has_alias = a.value("has_alias", false);
  return s;
}

}  // namespace

SchemaRegistry SchemaRegistry::FromProbe(const nlohmann::json& probe) {
  SchemaRegistry r;
  try {
    const auto& list = probe.at("schemas");
    r.schemas_.reserve(list.size());
    for (const auto& j : list) {
      OpSchema s;
      s.name = j.at("name");
      s.overload = j.at("overload");
      s.text = j.at("schema");
      for (const auto& a : j.at("arguments")) s.arguments.push_back(Argument(a));
      for (const auto& a : j.at("returns")) s.returns.push_back(Argument(a));
      s.is_mutable = j.value("is_mutable", false);
      s.in_dispatcher = j.value("in_dispatcher", true);
      r.schemas_.push_back(std::move(s));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("malformed operator schemas: ") + e.what());
  }
  for (size_t i = 0; i < r.schemas_.size(); ++i) {
    r.by_packet_[r.schemas_[i].name].push_back(i);
    r.by_name_.emplace(r.schemas_[i].Canonical(), i);
  }
  return r;
}

std::vector<const OpSchema*> SchemaRegistry::Overloads(const std::string& packet) const {
  std::vector<const OpSchema*> out;
  auto it = by_packet_.find(packet);
  if (it != by_packet_.end())
    for (size_t i : it->second) out.push_back(&schemas_[i]);
  return out;
}

const OpSchema* SchemaRegistry::Find(const std::string& canonical) const {
  auto it = by_name_.find(canonical);
  return it == by_name_.end() ? nullptr : &schemas_[it->second];
}

std::vector<std::string> SchemaRegistry::DispatcherNames() const {
  std::vector<std::string> out;
  for (const auto& s : schemas_)
    if (s.in_dispatcher) out.push_back(s.Canonical());
  return out;
}

}  // namespace testmap::backend
