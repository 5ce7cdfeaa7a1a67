// Resolving an operator as a user spells it (`_scaled_mm`, `aten::add`,
// `add.Tensor`, `aten.add.Tensor`, `torch.ops.aten.add.Tensor`,
// `aten.mm.default`) to what the index stores, and suggesting the closest
// known operators when it names none of them.
//
// Spellings are core::ParseOpName's; this file only adds the index's view:
// a packet matches all its overloads (and static evidence), an overload
// only itself.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::query {

struct ResolvedOp {
  std::string packet;                   // "aten::add"
  std::optional<std::string> overload;  // nullopt: the whole packet
  std::string canonical;                // "aten::add" or "aten::add.Tensor"
};

// Parses `text`. Throws core::UnknownNameError (without suggestions) when
// it cannot be an operator name.
ResolvedOp ParseQueryOp(std::string_view text);

// Whether `op` names something in `known` (canonical names, KnownOps()).
bool IsKnownOp(const ResolvedOp& op, const std::vector<std::string>& known);

// Up to `limit` operators of `known` closest to `text`: edit distance on
// the name without namespace and overload, ties broken by substring
// matches and then by name.
std::vector<std::string> ClosestOps(std::string_view text, const std::vector<std::string>& known,
                                    size_t limit = 5);

}  // namespace testmap::query
