#include "cli/admit_options.h"

#include <iostream>

#include "core/errors.h"
#include "indexer/index_backends.h"

namespace testmap::cli {
namespace {

// `privateuse1:openreg` or `openreg` -> `openreg`.
std::string DeviceName(const std::string& device) {
  if (device.empty()) return "";
  size_t colon = device.find(':');
  if (colon == std::string::npos) return device;
  if (device.substr(0, colon) != "privateuse1")
    throw core::UsageError(
        "--device takes privateuse1:NAME (a PrivateUse1 backend's device), not `" + device + "`");
  return device.substr(colon + 1);
}

}  // namespace

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
  if (in.supported.empty() && in.ops.empty() && in.backend.empty())
    throw core::UsageError(
        "say what the backend supports: --supported FILE, --ops LIST, or --backend NAME "
        "(records ingested with `testmap ingest --backend NAME`)");
  auto setup = std::make_unique<AdmitSetup>();
  admit::AdmitRequest& request = setup->request;
  if (in.supported.empty() && in.ops.empty()) {
    auto stored = indexer::ReadBackend(index, in.backend);
    if (!stored)
      throw core::UnknownNameError("backend", in.backend, indexer::BackendNames(index),
                                   "the index has no backend `" + in.backend +
                                       "` (ingest its records with `testmap ingest --backend " +
                                       in.backend + " RECORDS.jsonl`)");
    std::string sources;
    for (const auto& s : stored->sources) sources += (sources.empty() ? "" : ", ") + s;
    request.caps =
        admit::CapabilitiesFromRecords(stored->records, in.dispatch_key,
                                       "backend " + in.backend + " in the index (" + sources + ")");
  } else if (!in.supported.empty()) {
    setup->supported = admit::ReadSupported(in.supported, in.dispatch_key);
    for (const auto& w : setup->supported.warnings)
      std::cerr << "testmap " << command << ": " << w.ToString() << "\n";
    request.caps = setup->supported.caps;
  } else {
    request.caps.dispatch_key = in.dispatch_key;
    request.caps.origin = "--ops";
  }
  admit::AddListedOps(request.caps, in.ops);
  if (!in.dtypes.empty()) admit::AddListedDtypes(request.caps, in.dtypes);
  request.device = DeviceName(in.device);
  request.caps.backend = !in.backend.empty() ? in.backend : request.device;
  if (setup->supported.config) request.config = &*setup->supported.config;
  request.root_token = in.root_token;
  setup->torch = LoadTorch(in.torch);
  request.torch = &setup->torch;
  return setup;
}

}  // namespace testmap::cli
