// More of the toy namespace from another file: TORCH_LIBRARY_FRAGMENT, a
// schema defined together with its (composite) kernel, and a Meta kernel.
#include <torch/library.h>

#include "toy/kernels.h"

namespace toy {
namespace {

at::Tensor scale_meta(const at::Tensor& self, double factor) { return at::empty_like(self); }

}  // namespace

TORCH_LIBRARY_FRAGMENT(toy, m) { m.def("shift(Tensor self, int n) -> Tensor", toy::shift); }

TORCH_LIBRARY_IMPL(toy, Meta, m) { m.impl("scale", scale_meta); }

}  // namespace toy
