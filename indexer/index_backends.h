// A backend's capabilities in the index (column family `backends`): every
// record `testmap backend scan|dump` gave for it, stored whole under its
// name by `testmap ingest --backend NAME`, so that a new scan replaces the
// old one. Read by `testmap backend show` and `testmap admit --backend`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzers/backend/registration.h"
#include "indexer/index_store.h"

namespace testmap::indexer {

struct StoredBackend {
  std::string name;                    // `toy`, `openreg`
  std::vector<std::string> sources;    // the record files it was ingested from
  std::vector<backend::Registration> records;  // in output order, duplicates removed
};

// The value stored under the backend's name, and back. Decode throws
// core::InputError on a damaged value.
std::string EncodeBackend(const StoredBackend& backend);
StoredBackend DecodeBackend(const std::string& name, std::string_view value);

std::optional<StoredBackend> ReadBackend(const IndexStore& store, const std::string& name);
std::vector<std::string> BackendNames(const IndexStore& store);  // sorted

}  // namespace testmap::indexer
