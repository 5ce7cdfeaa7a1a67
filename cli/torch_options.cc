#include "cli/torch_options.h"

#include <cstdlib>

#include "core/errors.h"

namespace testmap::cli {

void AddTorchOptions(CLI::App* cmd, TorchOptions& options) {
  cmd->add_option("--torch-python", options.python,
                  "Python whose torch gives the operator registry and OpInfos (default: "
                  "$TESTMAP_PYTHON or python3)");
  cmd->add_option("--snapshot", options.snapshot, "torch snapshot file to use instead");
}

torch_snapshot::TorchSnapshot LoadTorch(const TorchOptions& options) {
  try {
    if (!options.snapshot.empty()) return torch_snapshot::LoadTorchSnapshot(options.snapshot);
    std::string python = options.python;
    if (python.empty()) {
      const char* env = std::getenv("TESTMAP_PYTHON");
      python = env && *env ? env : "python3";
    }
    return torch_snapshot::LoadTorchSnapshot(
        torch_snapshot::EnsureTorchSnapshot(python, torch_snapshot::DefaultCacheDir()));
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw core::InputError(std::string("cannot read torch's operator registry: ") + e.what() +
                           " (give --torch-python or --snapshot)");
  }
}

}  // namespace testmap::cli
