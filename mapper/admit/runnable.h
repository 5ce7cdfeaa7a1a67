// The runnable rule: whether a backend can run one operator overload. It
// lives here and nowhere else; docs/admit.md states it for people.
//
// An operator is runnable on the backend when
//   1. the backend has a kernel for it on its dispatch key (or on
//      CompositeExplicitAutograd, which serves every key), or lists it (or
//      its packet) as supported;
//   2. a boxed backend fallback on its key covers it (every operator
//      reaches the fallback);
//   3. it is decomposed before it reaches the backend: torch (or the
//      backend) registers it on CompositeImplicitAutograd, so the
//      dispatcher runs its parts, and the parts are what a trace shows as
//      operators of their own, each judged by this rule.
// Every other operator needs a kernel. That is conservative where torch
// has a CompositeExplicitAutograd kernel for it (such kernels often work on
// any backend): the answer says so, and such an operator is `missing`.
//
// Fallthroughs on the backend's key, and kernels on other keys
// (AutogradPrivateUse1, AutocastPrivateUse1, Meta) make nothing runnable:
// below them the backend's own kernel is still needed.
#pragma once

#include <string>
#include <string_view>

#include "analyzers/torch_snapshot/torch_snapshot.h"
#include "mapper/admit/capabilities.h"

namespace testmap::admit {

enum class Route {
  kKernel,      // rule 1
  kFallback,    // rule 2
  kDecomposed,  // rule 3
  kMissing,     // none: the operator blocks the tests that dispatch it
};

const char* RouteName(Route r);  // kernel | fallback | decomposed | missing

struct Runnability {
  Route route = Route::kMissing;
  // Where the deciding kernel or fallback was registered, or what
  // decomposes the operator (`CompositeImplicitAutograd`).
  std::string source;
  // kMissing only: torch has a CompositeExplicitAutograd kernel for it, so
  // the backend may well run it; admission stays conservative.
  bool composite_explicit = false;

  bool runnable() const { return route != Route::kMissing; }
};

// `op` is a canonical overload (`aten::add.Tensor`, `aten::_scaled_mm`).
// `torch` may be null (no snapshot): then rule 3 knows only what the
// backend decomposes itself.
Runnability Judge(const Capabilities& caps, const torch_snapshot::TorchSnapshot* torch,
                  std::string_view op);

}  // namespace testmap::admit
