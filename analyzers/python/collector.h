// Simulates what importing a test module does to its namespace (class
// definitions, instantiate_device_type_tests, instantiate_parametrized_tests,
// del) and then what pytest collects from the result: unittest classes,
// pytest classes and functions. The output is one TestRecord per item of
// `pytest --collect-only -q`.
#pragma once

#include <string>
#include <vector>

#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/module_model.h"
#include "analyzers/python/scanned_test.h"

namespace testmap::python {

struct DeviceSpec {
  std::string type;                  // `cpu`, `cuda`, `privateuse1`, ...
  std::string method_name;           // suffix in method names: `cpu`, or the backend name
  std::string class_suffix() const;  // `CPU`, `PRIVATEUSE1`
};

// `--device` values as `scan` takes them: `cpu`, `cuda`, or
// `privateuse1:NAME` for a PrivateUse1 backend named NAME.
std::vector<DeviceSpec> ParseDeviceSpecs(const std::vector<std::string>& devices);

struct CollectOptions {
  // Device types instantiate_device_type_tests creates, in order; what the
  // scanning machine's torch would see (CPU only here).
  std::vector<DeviceSpec> devices{{"cpu", "cpu"}};
  // Threads a class of thousands of tests may fill its records on; the
  // records are the same whatever the number.
  int threads = 1;
};

// Fills `scan.tests` and `scan.diagnostics` for one parsed module. The
// module's relative path is `scan.path`.
void CollectTests(const ParsedModule& module, const ModuleModel& model, Evaluator& ev,
                  const CollectOptions& options, FileScan& scan);

}  // namespace testmap::python
