// What `admit` and `config generate` both take to build an admission:
// the backend's capabilities (--supported, --ops, --dtypes, --backend,
// --dispatch-key), the device (--device privateuse1:NAME), the config
// paths' root (--root-token) and the torch (--torch-python, --snapshot).
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <string>
#include <vector>

#include "cli/torch_options.h"
#include "indexer/index_store.h"
#include "mapper/admit/admission.h"
#include "mapper/admit/supported_input.h"

namespace testmap::cli {

struct AdmitInputs {
  std::string supported, backend, device, dispatch_key = "PrivateUse1";
  std::vector<std::string> ops, dtypes;
  std::string root_token = "${TORCH_ROOT}";
  TorchOptions torch;
};

void AddAdmitInputOptions(CLI::App* cmd, AdmitInputs& inputs);

// A request and what it points at (the supported config, the torch), kept
// alive together.
struct AdmitSetup {
  admit::Supported supported;
  torch_snapshot::TorchSnapshot torch;
  admit::AdmitRequest request;
};

// Reads the inputs; warnings of a supported config go to stderr under
// `command`. `--backend NAME` alone takes the records `testmap ingest
// --backend NAME` stored in `index`. Throws core errors (usage, bad input,
// unknown names).
std::unique_ptr<AdmitSetup> SetUpAdmission(const AdmitInputs& inputs, const std::string& command,
                                           const indexer::IndexStore& index);

}  // namespace testmap::cli
