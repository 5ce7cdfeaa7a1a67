// The operators an index holds edges for, as stored: (packet, overload)
// pairs, static evidence (overload `*`) kept apart from the default
// overload (""), one seek per operator. IndexReader::KnownOps() gives the
// same list in canonical spelling, where the two cannot be told apart.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "indexer/index_store.h"

namespace testmap::indexer {

struct OpKey {
  std::string packet;    // "aten::add"
  std::string overload;  // "Tensor", "" (default overload), "*" (static evidence)

  bool is_static() const;
  // "aten::add.Tensor", "aten::_scaled_mm"; the packet for static evidence.
  std::string Canonical() const;
};

// Sorted by (packet, overload).
std::vector<OpKey> ListOpKeys(const IndexStore& store);

// Every edge of exactly this operator (the overload, or the static packet),
// in node id order, with its value still encoded (DecodeEdge reads it): for
// walks over hundreds of thousands of edges that need the tests first and
// the observations of only some.
void ForEachEncodedEdgeOfOp(const IndexStore& store, const OpKey& op,
                            const std::function<void(std::string_view nodeid, std::string_view run,
                                                     std::string_view value)>& fn);

}  // namespace testmap::indexer
