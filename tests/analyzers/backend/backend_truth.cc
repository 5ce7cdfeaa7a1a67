#include "tests/analyzers/backend/backend_truth.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::backend_test {

std::set<Identity> DispatcherTruth(const std::string& module, const std::string& path,
                                   const std::map<std::string, std::string>& env) {
  testing::TempDir tmp;
  std::string out = (tmp.path() / "truth.json").string();
  auto r = testing::Python(
      {testing::SourcePath("tests/analyzers/backend/dispatcher_truth.py"), out, module, path}, "",
      env);
  std::set<Identity> ids;
  if (r.rc != 0) {
    ADD_FAILURE() << "importing " << module << " failed:\n" << r.err;
    return ids;
  }
  nlohmann::json doc = nlohmann::json::parse(testing::ReadFile(out));
  for (const auto& rec : doc["records"])
    ids.insert({rec[0].is_string() ? rec[0].get<std::string>() : "",
                rec[1].is_string() ? rec[1].get<std::string>() : "", rec[2].get<std::string>()});
  return ids;
}

void SeedTorchSnapshot(const std::string& cache_dir) {
  namespace fs = std::filesystem;
  std::string shared = std::string(TESTMAP_BINARY_DIR) + "/tests/backend-snapshots";
  fs::path snapshot = torch_snapshot::EnsureTorchSnapshot(TESTMAP_PYTHON, shared);
  fs::path dir = fs::path(cache_dir) / "torch-snapshots";
  fs::create_directories(dir);
  fs::copy_file(snapshot, dir / snapshot.filename(), fs::copy_options::overwrite_existing);
}

}  // namespace testmap::backend_test
