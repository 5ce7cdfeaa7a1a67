// The scan against real pytest: what `pytest --collect-only` collects from
// a directory, and the check that `testmap scan` prints exactly that.
#pragma once

#include <cstddef>
#include <set>
#include <string>

namespace testmap::testing {

// The node ids real pytest collects from `dir` (which must import cleanly).
std::set<std::string> PytestCollects(const std::string& dir);

// The ids `testmap scan` prints for an example directory (relative to the
// source tree) against what real pytest collects from it, as gtest
// expectations (the scan exits 0); returns how many pytest collected.
size_t ExpectScanCollectsAsPytest(const std::string& example);

}  // namespace testmap::testing
