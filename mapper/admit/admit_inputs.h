// What `admit`, `config generate`, `report` and the MCP server's admission
// tools all take to build an admission, and the one place that turns it
// into an AdmitRequest: the backend's capabilities (a supported file, a
// backend ingested into the index, operator and dtype lists), the device
// (privateuse1:NAME) and the config paths' root.
//
//   admit::AdmitInputs in;
//   in.backend = "toy";  // alone: the records `testmap ingest --backend toy` stored
//   auto setup = admit::SetUpAdmission(in, *store, [&] { return &torch; });
//   admit::Admission a = admit::Admit(reader, setup->request);
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "indexer/index_store.h"
#include "mapper/admit/admission.h"
#include "mapper/admit/supported_input.h"

namespace testmap::admit {

struct AdmitInputs {
  // Backend records or a test_suite_config; the caller has vetted the path
  // (the MCP server: under --allow).
  std::string supported;
  std::string backend;  // a name for answers; alone, the records stored under it
  std::string device;   // privateuse1:NAME (or NAME); "" for the traced ids
  std::string dispatch_key = "PrivateUse1";
  std::vector<std::string> ops, dtypes;
  std::string root_token = "${TORCH_ROOT}";

  // True when nothing says what the backend supports.
  bool empty() const { return supported.empty() && ops.empty() && backend.empty(); }
};

// A request and what it points at (the supported config), kept together.
struct AdmitSetup {
  Supported supported;  // warnings of a supported config in supported.warnings
  AdmitRequest request;
};

// Reads the inputs; `torch` is asked for last (after every input is known
// good), so bad input is reported before torch is loaded. Throws
// core::UsageError (nothing supported given, a device not
// privateuse1:NAME), core::InputError (a malformed file, at its line),
// core::UnknownNameError (an operator, dtype or backend, with suggestions).
std::unique_ptr<AdmitSetup> SetUpAdmission(
    const AdmitInputs& inputs, const indexer::IndexStore& index,
    const std::function<const torch_snapshot::TorchSnapshot*()>& torch);

}  // namespace testmap::admit
