// `testmap config check`: a test_suite_config validated as backends use
// it. The reader's schema checks (config_reader.h) and, against the index
// and torch when given:
//   - file paths that name no test file of the index;
//   - names that match no generic test of their file (exact names, and
//     patterns, matched on the method as the framework does), and names
//     whose class part names no class of that method (the framework ignores
//     it, so the entry applies anyway: a warning, not an error);
//   - a method listed in two entries of one file (the framework keeps the
//     last);
//   - OpInfo and ModuleInfo names torch does not have, supported_ops dtypes
//     outside supported_dtypes.
// Errors exit 1; warnings do not, unless the reader was strict.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "indexer/index_store.h"
#include "mapper/config/config_reader.h"

namespace testmap::config {

struct CheckRequest {
  ReadOptions read;
  std::string root_token = "${TORCH_ROOT}";
  const indexer::IndexStore* index = nullptr;            // null: no index checks
  const torch_snapshot::TorchSnapshot* torch = nullptr;  // null: no torch checks
};

struct CheckResult {
  std::string path;
  std::vector<Diagnostic> diagnostics;  // in file order
  size_t files = 0, entries = 0, names = 0;
  bool HasErrors() const;
  size_t Count(Diagnostic::Severity s) const;
};

CheckResult CheckConfig(const std::string& path, const CheckRequest& request);

nlohmann::json CheckJson(const CheckResult& r);
// table (one diagnostic a line and a summary) | json
void RenderCheck(const CheckResult& r, const std::string& format, std::ostream& out);

}  // namespace testmap::config
