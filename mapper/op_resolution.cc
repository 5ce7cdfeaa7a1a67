#include "mapper/op_resolution.h"

#include <algorithm>
#include <tuple>

#include "core/op_names.h"

namespace testmap::mapper {
namespace {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

// "aten::add.Tensor" -> "add"; what people misspell is the name part.
std::string_view BareName(std::string_view op) {
  if (size_t ns = op.find("::"); ns != std::string_view::npos) op.remove_prefix(ns + 2);
  if (size_t dot = op.find('.'); dot != std::string_view::npos) op = op.substr(0, dot);
  return op;
}

}  // namespace

ResolvedOp ParseQueryOp(std::string_view text) {
  auto parsed = core::ParseOpName(text);
  if (!parsed) throw UnknownOpError("`" + std::string(text) + "` is not an operator name", {});
  ResolvedOp op;
  op.packet = parsed->Packet();
  if (!parsed->is_packet) op.overload = parsed->overload;
  op.canonical = parsed->Canonical();
  return op;
}

bool IsKnownOp(const ResolvedOp& op, const std::vector<std::string>& known) {
  for (const auto& k : known) {
    if (!op.overload) {
      if (k == op.packet ||
          (k.size() > op.packet.size() && k.starts_with(op.packet) && k[op.packet.size()] == '.')) {
        return true;
      }
    } else if (k == op.canonical) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> ClosestOps(std::string_view text, const std::vector<std::string>& known,
                                    size_t limit) {
  auto parsed = core::ParseOpName(text);
  std::string wanted = parsed ? parsed->name : std::string(BareName(text));
  std::vector<std::tuple<size_t, int, std::string>> ranked;
  for (const auto& k : known) {
    std::string_view name = BareName(k);
    size_t d = EditDistance(wanted, name);
    // Containment only counts for names long enough to mean something
    // (`scaled_mm` ~ `_scaled_mm`, but not `scaled_mm` ~ `le`).
    bool contains =
        std::min(wanted.size(), name.size()) >= 3 &&
        (name.find(wanted) != std::string_view::npos || wanted.find(name) != std::string::npos);
    // Far-off names are noise, unless one contains the other (`mm` ~ `_scaled_mm`).
    if (!contains && d > std::max<size_t>(2, wanted.size() / 2)) continue;
    ranked.emplace_back(contains ? std::min<size_t>(d, 1) : d, contains ? 0 : 1, k);
  }
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> out;
  for (const auto& [d, c, k] : ranked) {
    if (out.size() == limit) break;
    out.push_back(k);
  }
  return out;
}

}  // namespace testmap::mapper
