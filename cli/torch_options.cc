#include "cli/torch_options.h"

#include "analyzers/torch_snapshot/load_torch.h"

namespace testmap::cli {

void AddTorchOptions(CLI::App* cmd, TorchOptions& options) {
  cmd->add_option("--torch-python", options.python,
                  "Python whose torch gives the operator registry and OpInfos (default: the "
                  "active virtualenv's, else $TESTMAP_PYTHON, else the one testmap was built "
                  "with)");
  cmd->add_option("--snapshot", options.snapshot, "torch snapshot file to use instead");
}

torch_snapshot::TorchSnapshot LoadTorch(const TorchOptions& options) {
  return torch_snapshot::LoadTorchFor(options.python, options.snapshot);
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
