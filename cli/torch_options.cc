#include "cli/torch_options.h"

#include "analyzers/torch_snapshot/load_torch.h"

namespace testmap::cli {

void AddTorchOptions(CLI::App* cmd, TorchOptions& options) {
  cmd->add_option("--torch-python", options.python,
                  "Python whose torch gives the operator registry and OpInfos (default: "
                  "$TESTMAP_PYTHON or python3)");
  cmd->add_option("--snapshot", options.snapshot, "torch snapshot file to use instead");
}

torch_snapshot::TorchSnapshot LoadTorch(const TorchOptions& options) {
  return torch_snapshot::LoadTorchFor(options.python, options.snapshot);
}

}  // namespace testmap::cli
