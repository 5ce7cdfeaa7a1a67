// Operator identity: the dispatcher's operator overload, spelled
// `namespace::name.overload` with the overload omitted for the default
// overload (`aten::add.Tensor`, `aten::_scaled_mm`). This is what
// `c10::OperatorName` prints and what every stage keys on.
//
// Evidence and user queries spell the same operator many ways:
//   aten::add.Tensor   aten.add.Tensor   torch.ops.aten.add.Tensor
//   add.Tensor         aten.mm.default   _scaled_mm   aten::add
// ParseOpName maps them all onto one OpName. A name without an overload is
// a *packet* (all overloads of `aten::add`); `.default` is the default
// overload itself, which is not a packet.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace testmap::core {

struct OpName {
  std::string ns;        // "aten"; filled with "aten" when the input had none
  std::string name;      // "add", "_scaled_mm", "__and__"
  std::string overload;  // "Tensor"; "" for the default overload or a packet
  // True when the input named a whole packet (`add`, `aten::add`): no
  // overload was given and the default overload was not spelled out.
  bool is_packet = false;

  // `aten::add.Tensor`, `aten::_scaled_mm`, `aten::add` (packet).
  std::string Canonical() const;
  // `aten::add`: the packet this overload belongs to.
  std::string Packet() const;
  // True when `overload_name` (a canonical overload) is covered by this
  // name: a packet matches all its overloads, an overload only itself.
  bool Matches(const OpName& overload_name) const;

  bool operator==(const OpName&) const = default;
};

// Parses any spelling above. Returns nullopt for text that cannot be an
// operator name (empty, spaces, `::` without a name, too many dots).
//
// The ambiguity `aten.add` (namespace.name, a packet) versus `add.Tensor`
// (name.overload) is resolved the way torch does: with two dot-separated
// parts the first is the namespace only when it is a known namespace
// (aten, prims, quantized, ...) or the input came with a `torch.ops.`
// prefix. Overload-style input without namespace (`add.Tensor`) gets aten.
std::optional<OpName> ParseOpName(std::string_view text);

// Shorthand: ParseOpName(text)->Canonical(), or nullopt.
std::optional<std::string> CanonicalOpName(std::string_view text);

}  // namespace testmap::core
