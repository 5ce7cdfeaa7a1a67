#include "mcp/torch_source.h"

#include "analyzers/torch_snapshot/load_torch.h"
#include "core/errors.h"

namespace testmap::mcp {

const torch_snapshot::TorchSnapshot& TorchSource::Get() const {
  std::lock_guard<std::mutex> lock(mu_);
  if (torch_) return *torch_;
  // A failure is kept: retrying would start a Python per call.
  if (!error_.empty()) throw core::InputError(error_);
  try {
    torch_ = std::make_unique<torch_snapshot::TorchSnapshot>(
        torch_snapshot::LoadTorchFor(python_, snapshot_));
  } catch (const std::exception& e) {
    error_ = e.what();
    throw core::InputError(error_);
  }
  return *torch_;
}

}  // namespace testmap::mcp
