// What the backend tests compare: (op, dispatch key, kind) sets from a
// scan, from `testmap backend dump`, and from the independent dispatcher
// truth of dispatcher_truth.py, which imports the backend in a fresh
// Python.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "analyzers/backend/registration.h"

namespace testmap::backend_test {

using Identity = std::tuple<std::string, std::string, std::string>;  // op, key, kind

inline Identity IdentityOf(const nlohmann::json& r) {
  auto s = [&](const char* k) { return r[k].is_string() ? r[k].get<std::string>() : ""; };
  return {s("op"), s("dispatch_key"), s("kind")};
}

inline Identity IdentityOf(const backend::Registration& r) {
  return {r.op, r.dispatch_key, std::string(backend::KindName(r.kind))};
}

// The dispatcher truth for importing `module` with `path` on sys.path.
// Fails the test (and returns an empty set) when the import fails.
std::set<Identity> DispatcherTruth(const std::string& module, const std::string& path,
                                   const std::map<std::string, std::string>& env = {});

// Puts torch's snapshot (analyzers/torch_snapshot) into a fresh cache
// directory, from one kept in the build tree: taking it imports torch's
// test machinery, seconds the tests need not spend on every cold scan.
void SeedTorchSnapshot(const std::string& cache_dir);

inline std::string Describe(const std::set<Identity>& ids) {
  std::string out;
  for (const auto& [op, key, kind] : ids)
    out += "\n  (" + (op.empty() ? "*" : op) + ", " + (key.empty() ? "-" : key) + ", " + kind + ")";
  return out.empty() ? " (none)" : out;
}

}  // namespace testmap::backend_test
