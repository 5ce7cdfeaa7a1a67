// The snapshot that answers resting on torch's operator registry read
// (`admit`, `config`, `report`, the MCP server's admission tools), chosen
// the one way they all choose it.
#pragma once

#include <string>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::torch_snapshot {

// The file `snapshot` when given, else the cached snapshot of `python`
// (default: DefaultTorchPython(), as scan's), made when missing. Throws
// core::InputError saying what failed and that --torch-python or
// --snapshot chooses the torch.
TorchSnapshot LoadTorchFor(const std::string& python, const std::string& snapshot);

}  // namespace testmap::torch_snapshot
