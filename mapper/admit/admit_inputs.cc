#include "mapper/admit/admit_inputs.h"

#include "core/errors.h"
#include "indexer/index_backends.h"

namespace testmap::admit {
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

std::unique_ptr<AdmitSetup> SetUpAdmission(
    const AdmitInputs& in, const indexer::IndexStore& index,
    const std::function<const torch_snapshot::TorchSnapshot*()>& torch) {
  if (in.empty())
    throw core::UsageError(
        "say what the backend supports: --supported FILE, --ops LIST, or --backend NAME "
        "(records ingested with `testmap ingest --backend NAME`)");
  auto setup = std::make_unique<AdmitSetup>();
  AdmitRequest& request = setup->request;
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
        CapabilitiesFromRecords(stored->records, in.dispatch_key,
                                "backend " + in.backend + " in the index (" + sources + ")");
  } else if (!in.supported.empty()) {
    setup->supported = ReadSupported(in.supported, in.dispatch_key);
    request.caps = setup->supported.caps;
  } else {
    request.caps.dispatch_key = in.dispatch_key;
    request.caps.origin = "--ops";
  }
  AddListedOps(request.caps, in.ops);
  if (!in.dtypes.empty()) AddListedDtypes(request.caps, in.dtypes);
  request.device = DeviceName(in.device);
  request.caps.backend = !in.backend.empty() ? in.backend : request.device;
  if (setup->supported.config) request.config = &*setup->supported.config;
  request.root_token = in.root_token;
  request.torch = torch();
  return setup;
}

}  // namespace testmap::admit
