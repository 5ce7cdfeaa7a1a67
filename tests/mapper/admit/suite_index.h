// What the admission, config and plugin tests share: the example suite's
// real scan and trace (tests/support/suite_evidence.h) ingested into an
// index of this test process, and `testmap` with this build's torch.
#pragma once

#include <string>
#include <vector>

#include "tests/support/command.h"

namespace testmap::testing {

// The index (made on first use, in this process's scratch directory).
const std::string& SuiteIndex();

// The example suite scanned for a PrivateUse1 backend's device
// (`testmap scan --device privateuse1:toy`), as a JSONL file of this process.
const std::string& ToyDeviceScan();

// `testmap ARGS... --torch-python PY`: commands that read torch's registry.
CommandResult TestmapWithTorch(std::vector<std::string> args, const std::string& cwd = "");

}  // namespace testmap::testing
