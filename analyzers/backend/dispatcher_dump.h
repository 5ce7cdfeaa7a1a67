// `testmap backend dump`: the registrations importing a backend makes, read
// from the live dispatcher of a real torch (dispatcher_dump.py, run by the
// backend's Python). The ground truth a static scan is checked against.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/registration.h"

namespace testmap::backend {

struct DumpOptions {
  std::string python;                    // with torch and the backend importable
  std::vector<std::string> modules;      // imported in order
  std::vector<std::string> python_path;  // prepended to sys.path
};

struct DumpResult {
  std::vector<Registration> records;    // evidence runtime; OutputOrder
  std::vector<Diagnostic> diagnostics;  // import failures (errors: the answer is partial)
  std::string torch_version;
  std::string privateuse1_backend;  // the PrivateUse1 name after import
};

// Throws std::runtime_error when the dump itself cannot run (no such
// Python, no torch).
DumpResult DumpDispatcher(const DumpOptions& options);

}  // namespace testmap::backend
