#include "mapper/admit/runnable.h"

#include "core/op_names.h"

namespace testmap::admit {

const char* RouteName(Route r) {
  switch (r) {
    case Route::kKernel:
      return "kernel";
    case Route::kFallback:
      return "fallback";
    case Route::kDecomposed:
      return "decomposed";
    case Route::kMissing:
      return "missing";
  }
  return "?";
}

Runnability Judge(const Capabilities& caps, const torch_snapshot::TorchSnapshot* torch,
                  std::string_view op) {
  std::string name(op);
  if (auto it = caps.kernels.find(name); it != caps.kernels.end())
    return {Route::kKernel, it->second, false};
  auto parsed = core::ParseOpName(op);
  if (parsed) {
    if (auto it = caps.packets.find(parsed->Packet()); it != caps.packets.end())
      return {Route::kKernel, it->second, false};
  }
  if (caps.fallback) return {Route::kFallback, *caps.fallback, false};
  if (auto it = caps.decompositions.find(name); it != caps.decompositions.end())
    return {Route::kDecomposed, it->second, false};
  Runnability missing;
  if (torch) {
    if (const auto* entry = torch->FindOperator(name)) {
      if (torch->HasKernel(*entry, "CompositeImplicitAutograd").value_or(false))
        return {Route::kDecomposed, "CompositeImplicitAutograd (torch)", false};
      missing.composite_explicit =
          torch->HasKernel(*entry, "CompositeExplicitAutograd").value_or(false);
    }
  }
  return missing;
}

}  // namespace testmap::admit
