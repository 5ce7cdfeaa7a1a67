// Dtype identity: every stage names dtypes the way torch prints them
// (`str(torch.float32).split(".")[1]`): float32, bfloat16, int64, bool,
// complex64, float8_e4m3fn, ...
//
// Evidence arrives in three other spellings that must land on the same
// identity, or a query for `bfloat16` silently misses half the data:
//   - c10::ScalarType names from C++ (`Float`, `BFloat16`, `Long`),
//   - TORCH_LOGS graph annotations (`f32`, `bf16`, `i64`, `b8`), from
//     torch/utils/_dtype_abbrs.py (`dtype.abbr` in newer torch),
//   - torch aliases and qualified names (`torch.float`, `half`, `torch.long`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::core {

// The canonical torch name for `name` in any of the spellings above, or
// nullopt when it is not a dtype torch knows. Matching is exact (case
// matters: `Float` is c10's float32, `float` is torch's alias of it, and
// `b8` is bool while `B8` means nothing).
std::optional<std::string> NormalizeDtype(std::string_view name);

// The TORCH_LOGS abbreviation of a canonical dtype (`float32` -> `f32`), or
// nullopt when torch has no abbreviation for it.
std::optional<std::string> DtypeAbbreviation(std::string_view canonical);

// Every canonical dtype name, in c10::ScalarType order. For help texts and
// for validating user input.
const std::vector<std::string>& AllDtypes();

}  // namespace testmap::core
