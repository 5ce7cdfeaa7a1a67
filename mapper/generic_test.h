// The generic test behind an instantiated one: device and dtype suffixes and
// @parametrize brackets removed, so "test_ops.py::TestCommonCPU::
// test_out_add_cpu_float32" and its float64 sibling share
// "test_ops.py::TestCommon::test_out_add". Used to estimate an untimed test
// from its siblings. A heuristic on names (the static analyzer knows better);
// it only has to group siblings, not name templates exactly.
#pragma once

#include <string>
#include <string_view>

namespace testmap::mapper {

std::string GenericTestKey(std::string_view nodeid);

}  // namespace testmap::mapper
