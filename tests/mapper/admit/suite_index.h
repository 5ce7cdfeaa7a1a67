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

// `testmap ARGS... --torch-python PY`: commands that read torch's registry.
CommandResult TestmapWithTorch(std::vector<std::string> args, const std::string& cwd = "");

}  // namespace testmap::testing
