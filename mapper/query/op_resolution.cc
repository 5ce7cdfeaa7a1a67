#include "mapper/query/op_resolution.h"

#include "core/closest_names.h"
#include "core/errors.h"
#include "core/op_names.h"

namespace testmap::query {
namespace {

// "aten::add.Tensor" -> "add"; what people misspell is the name part.
std::string_view BareName(std::string_view op) {
  if (size_t ns = op.find("::"); ns != std::string_view::npos) op.remove_prefix(ns + 2);
  if (size_t dot = op.find('.'); dot != std::string_view::npos) op = op.substr(0, dot);
  return op;
}

}  // namespace

ResolvedOp ParseQueryOp(std::string_view text) {
  auto parsed = core::ParseOpName(text);
  if (!parsed)
    throw core::UnknownNameError("operator", std::string(text), {},
                                 "`" + std::string(text) + "` is not an operator name");
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
  return core::ClosestNames(wanted, known, limit, BareName);
}

}  // namespace testmap::query
