#include "core/op_names.h"

#include <array>
#include <vector>

namespace testmap::core {
namespace {

// Namespaces that appear in ATen-level evidence. Only consulted to resolve
// the two-part `x.y` ambiguity; `ns::name` forms accept any namespace.
constexpr std::array<std::string_view, 10> kKnownNamespaces = {
    "aten", "prims",    "quantized",   "higher_order", "_c10d_functional",
    "c10d", "inductor", "torchvision", "_quantized",   "fbgemm"};

bool IsKnownNamespace(std::string_view ns) {
  for (auto known : kKnownNamespaces) {
    if (ns == known) return true;
  }
  return false;
}

bool IsIdentifier(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    bool ok =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return !(s[0] >= '0' && s[0] <= '9');
}

std::vector<std::string_view> SplitDots(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// Fills name/overload from `name` or `name.overload`.
std::optional<OpName> FromNameAndOverload(std::string ns, std::string_view rest) {
  auto parts = SplitDots(rest);
  if (parts.empty() || parts.size() > 2) return std::nullopt;
  OpName op;
  op.ns = std::move(ns);
  if (!IsIdentifier(parts[0])) return std::nullopt;
  op.name = std::string(parts[0]);
  if (parts.size() == 1) {
    op.is_packet = true;
    return op;
  }
  if (!IsIdentifier(parts[1])) return std::nullopt;
  // torch's Python spelling of the default overload.
  if (parts[1] != "default") op.overload = std::string(parts[1]);
  return op;
}

}  // namespace

std::string OpName::Canonical() const {
  std::string out = ns + "::" + name;
  if (!overload.empty()) out += "." + overload;
  return out;
}

std::string OpName::Packet() const { return ns + "::" + name; }

bool OpName::Matches(const OpName& other) const {
  if (ns != other.ns || name != other.name) return false;
  return is_packet || overload == other.overload;
}

std::optional<OpName> ParseOpName(std::string_view text) {
  // Surrounding whitespace is common in copied log lines and CLI input.
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  if (text.empty()) return std::nullopt;

  if (auto colons = text.find("::"); colons != std::string_view::npos) {
    std::string_view ns = text.substr(0, colons);
    if (!IsIdentifier(ns)) return std::nullopt;
    return FromNameAndOverload(std::string(ns), text.substr(colons + 2));
  }

  bool qualified = false;
  if (text.starts_with("torch.ops.")) {
    text.remove_prefix(10);
    qualified = true;
  } else if (text.starts_with("ops.")) {
    text.remove_prefix(4);
    qualified = true;
  }
  auto parts = SplitDots(text);
  if (parts.size() == 3) {
    if (!IsIdentifier(parts[0])) return std::nullopt;
    return FromNameAndOverload(std::string(parts[0]), text.substr(parts[0].size() + 1));
  }
  if (parts.size() == 2 && (qualified || IsKnownNamespace(parts[0]))) {
    if (!IsIdentifier(parts[0])) return std::nullopt;
    return FromNameAndOverload(std::string(parts[0]), parts[1]);
  }
  if (parts.size() <= 2) return FromNameAndOverload("aten", text);
  return std::nullopt;
}

std::optional<std::string> CanonicalOpName(std::string_view text) {
  auto op = ParseOpName(text);
  if (!op) return std::nullopt;
  return op->Canonical();
}

}  // namespace testmap::core
