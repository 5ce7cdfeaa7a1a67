// "Did you mean": the known names closest to a misspelt one, for every
// UnknownNameError (operators, dtypes, devices, roles, tests).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::core {

// Edit distance counting a swap of neighbours as one edit (optimal string
// alignment): typos swap letters.
size_t EditDistance(std::string_view a, std::string_view b);

// Up to `limit` names of `known` closest to `wanted`, best first. Names are
// compared through `key` (the part people misspell: `add` of
// `aten::add.Tensor`); far-off names are left out unless one contains the
// other (`scaled_mm` ~ `_scaled_mm`); ties go by name.
std::vector<std::string> ClosestNames(
    std::string_view wanted, const std::vector<std::string>& known, size_t limit = 5,
    const std::function<std::string_view(std::string_view)>& key = nullptr);

}  // namespace testmap::core
