// The torch whose operator registry and OpInfos answers rest on (admit,
// config, query's operator names): `--torch-python PY` (default
// torch_snapshot::DefaultTorchPython()) makes
// or reuses the cached snapshot (analyzers/torch_snapshot), `--snapshot
// FILE` names one directly.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::cli {

struct TorchOptions {
  std::string python;
  std::string snapshot;
};

void AddTorchOptions(CLI::App* cmd, TorchOptions& options);

// Throws core::InputError when no snapshot can be made or read.
torch_snapshot::TorchSnapshot LoadTorch(const TorchOptions& options);

// The canonical names of every overload torch's registry has, for
// query::QueryOptions::torch_operators; empty when no torch is at hand
// (queries then know only the index's operators).
std::vector<std::string> TorchOperatorNames(const TorchOptions& options);

}  // namespace testmap::cli
