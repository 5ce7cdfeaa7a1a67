#include "analyzers/torch_snapshot/load_torch.h"

#include "core/errors.h"

namespace testmap::torch_snapshot {

TorchSnapshot LoadTorchFor(const std::string& python_in, const std::string& snapshot) {
  try {
    if (!snapshot.empty()) return LoadTorchSnapshot(snapshot);
    std::string python = python_in.empty() ? DefaultTorchPython() : python_in;
    return LoadTorchSnapshot(EnsureTorchSnapshot(python, DefaultCacheDir()));
  } catch (const core::InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw core::InputError(std::string("cannot read torch's operator registry: ") + e.what() +
                           " (give --torch-python or --snapshot)");
  }
}

}  // namespace testmap::torch_snapshot
