// The torch whose operator registry and OpInfos answers rest on (admit,
// config): `--torch-python PY` (default $TESTMAP_PYTHON, else python3) makes
// or reuses the cached snapshot (analyzers/torch_snapshot), `--snapshot
// FILE` names one directly.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::cli {

struct TorchOptions {
  std::string python;
  std::string snapshot;
};

void AddTorchOptions(CLI::App* cmd, TorchOptions& options);

// Throws core::InputError when no snapshot can be made or read.
torch_snapshot::TorchSnapshot LoadTorch(const TorchOptions& options);

}  // namespace testmap::cli
