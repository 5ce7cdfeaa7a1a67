// What `admit` and `config generate` both take to build an admission, as
// options: the backend's capabilities (--supported, --ops, --dtypes,
// --backend, --dispatch-key), the device (--device privateuse1:NAME), the
// config paths' root (--root-token) and the torch (--torch-python,
// --snapshot). The inputs and their reading are mapper/admit/admit_inputs.h.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>

#include "cli/torch_options.h"
#include "indexer/index_store.h"
#include "mapper/admit/admit_inputs.h"

namespace testmap::cli {

struct AdmitInputs : admit::AdmitInputs {
  TorchOptions torch;
};

void AddAdmitInputOptions(CLI::App* cmd, AdmitInputs& inputs);

// The library's setup and the torch it points at, kept alive together.
struct AdmitSetup : admit::AdmitSetup {
  torch_snapshot::TorchSnapshot torch;
};

// admit::SetUpAdmission with the torch of the options; warnings of a
// supported config go to stderr under `command`.
std::unique_ptr<AdmitSetup> SetUpAdmission(const AdmitInputs& inputs, const std::string& command,
                                           const indexer::IndexStore& index);

}  // namespace testmap::cli
