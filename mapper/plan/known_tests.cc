#include "mapper/plan/known_tests.h"

#include "core/node_id.h"

namespace testmap::plan {
void KnownTests::Add(std::string_view nodeid) {
  core::NodeId parts = core::NodeId::Parse(nodeid);
  if (parts.name.empty()) return;
  const std::string key = core::FileKey(parts.path);
  File& file = files_[key];
  if (file.path.empty()) {
    file.path = parts.path;
    for (const std::string& alias : core::FileKeyAliases(key)) alias_.emplace(alias, key);
  }
  file.ids.emplace(std::string(nodeid), parts.cls);
}

std::vector<std::string> KnownTests::Of(const std::string& file_key, const std::string& cls) const {
  std::vector<std::string> out;
  auto a = alias_.find(file_key);
  if (a == alias_.end()) return out;
  for (const auto& [id, id_cls] : files_.at(a->second).ids) {
    if (cls.empty() || id_cls == cls) out.push_back(id);
  }
  return out;
}

std::string KnownTests::PathOf(const std::string& file_key) const {
  auto a = alias_.find(file_key);
  return a == alias_.end() ? "" : files_.at(a->second).path;
}

}  // namespace testmap::plan
