#include "cli/admit_options.h"

#include <iostream>

namespace testmap::cli {

void AddAdmitInputOptions(CLI::App* cmd, AdmitInputs& in) {
  cmd->add_option("--supported", in.supported,
                  "Backend records (JSONL/JSON) or a test_suite_config (YAML)");
  cmd->add_option("--ops", in.ops,
                  "Operators the backend supports (any spelling; packets mean all overloads)")
      ->delimiter(',');
  cmd->add_option("--dtypes", in.dtypes, "Dtypes the backend supports (the ceiling)")
      ->delimiter(',');
  cmd->add_option("--backend", in.backend, "The backend's name (default: the device name)");
  cmd->add_option("--device", in.device,
                  "privateuse1:NAME: answer for the backend's own scanned ids, joined to the "
                  "traced ones by generic test and params");
  cmd->add_option("--dispatch-key", in.dispatch_key, "The backend's dispatch key")
      ->capture_default_str();
  cmd->add_option("--root-token", in.root_token,
                  "What a config's paths start with for the node ids' root")
      ->capture_default_str();
  AddTorchOptions(cmd, in.torch);
}

std::unique_ptr<AdmitSetup> SetUpAdmission(const AdmitInputs& in, const std::string& command,
                                           const indexer::IndexStore& index) {
  auto setup = std::make_unique<AdmitSetup>();
  auto made = admit::SetUpAdmission(in, index, [&] {
    setup->torch = LoadTorch(in.torch);
    return &setup->torch;
  });
  for (const auto& w : made->supported.warnings)
    std::cerr << "testmap " << command << ": " << w.ToString() << "\n";
  // The request points into the setup it came with: move both at once.
  static_cast<admit::AdmitSetup&>(*setup) = std::move(*made);
  if (setup->supported.config) setup->request.config = &*setup->supported.config;
  return setup;
}

}  // namespace testmap::cli
