#include "indexer/index_backends.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzers/backend/registration_json.h"
#include "core/errors.h"
#include "indexer/backend_input.h"

namespace testmap::indexer {

std::string EncodeBackend(const StoredBackend& b) {
  std::vector<backend::Registration> records = b.records;
  std::stable_sort(records.begin(), records.end(), backend::OutputOrder);
  std::vector<std::string> sources = b.sources;
  std::sort(sources.begin(), sources.end());
  sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
  std::string out = nlohmann::json{{"name", b.name}, {"sources", sources}}.dump();
  // Then the records in their documented JSONL form, one a line (the same
  // record twice, from two files, once).
  std::string last;
  for (const auto& r : records) {
    std::string line = backend::ToJson(r).dump();
    if (line != last) out += "\n" + line;
    last = std::move(line);
  }
  return out;
}

StoredBackend DecodeBackend(const std::string& name, std::string_view value) {
  StoredBackend b;
  size_t nl = value.find('\n');
  auto head = nlohmann::json::parse(value.substr(0, nl), nullptr, false);
  if (!head.is_object() || !head.contains("sources"))
    throw core::InputError("damaged capabilities of backend `" + name + "` in the index");
  b.name = head.value("name", name);
  b.sources = head["sources"].get<std::vector<std::string>>();
  if (nl != std::string_view::npos)
    b.records = ReadBackendRecords(std::string(value.substr(nl + 1)), "backend " + name);
  return b;
}

std::optional<StoredBackend> ReadBackend(const IndexStore& store, const std::string& name) {
  auto value = store.Get(Cf::kBackends, name);
  if (!value) return std::nullopt;
  return DecodeBackend(name, *value);
}

std::vector<std::string> BackendNames(const IndexStore& store) {
  std::vector<std::string> out;
  store.Scan(Cf::kBackends, "", [&](std::string_view key, std::string_view) {
    out.emplace_back(key);
    return true;
  });
  return out;
}

}  // namespace testmap::indexer
