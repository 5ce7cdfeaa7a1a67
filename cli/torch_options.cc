#include "cli/torch_options.h"

#include "core/errors.h"

namespace testmap::cli {

void AddTorchOptions(CLI::App* cmd, TorchOptions& options) {
  cmd->add_option("--torch-python", options.python,
                  "Python whose torch gives the operator registry and OpInfos (default: the "
                  "active virtualenv's, else $TESTMAP_PYTHON, else the one testmap was built "
                  "with)");
  cmd->add_option("--snapshot", options.snapshot, "torch snapshot file to use instead");
}

torch_snapshot::TorchSnapshot LoadTorch(const TorchOptions& options) {
  try {
    if (!options.snapshot.empty()) return torch_snapshot::LoadTorchSnapshot(options.snapshot);
    std::string python =
        options.python.empty() ? torch_snapshot::DefaultTorchPython() : options.python;
    return torch_snapshot::LoadTorchSnapshot(
        torch_snapshot::EnsureTorchSnapshot(python, torch_snapshot::DefaultCacheDir()));
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw core::InputError(std::string("cannot read torch's operator registry: ") + e.what() +
                           " (give --torch-python or --snapshot)");
  }
}

std::vector<std::string> TorchOperatorNames(const TorchOptions& options) {
  std::vector<std::string> names;
  try {
    for (const auto& op : LoadTorch(options).operators) names.push_back(op.name);
  } catch (const std::exception&) {
    // No torch here: the index's own operators are what a query knows.
  }
  return names;
}

}  // namespace testmap::cli
