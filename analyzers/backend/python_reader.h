// The Python half of `testmap backend scan`: reads a backend's Python
// modules with tree-sitter and runs them through the abstract interpreter
// (py_interpreter.h) from each package's __init__, so that registrations
// made through torch.library, in helpers, loops over aten.<packet> lists
// and decorators are found as importing the package would make them.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"
#include "analyzers/backend/source_tree.h"
#include "analyzers/backend/torch_library_model.h"

namespace testmap::backend {

struct PythonScanResult {
  std::vector<Registration> records;  // files absolute
  std::vector<Diagnostic> diagnostics;
  size_t modules = 0, unreadable = 0;
  std::set<std::string> privateuse1_names;  // device names seen renamed to PrivateUse1
};

// `privateuse1_names`: names the C++ side already gave PrivateUse1
// (c10::register_privateuse1_backend).
PythonScanResult ScanPython(const SourceTree& tree, const TorchFacts& torch,
                            const std::set<std::string>& privateuse1_names);

}  // namespace testmap::backend
