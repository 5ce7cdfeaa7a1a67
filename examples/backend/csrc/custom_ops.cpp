// The backend's own operators: schemas in TORCH_LIBRARY(toy), kernels for
// the toy device and the CPU, and an autograd kernel for the toy device.
#include <torch/csrc/autograd/custom_function.h>
#include <torch/library.h>

#include "toy/kernels.h"

namespace toy {
namespace {

struct ScaleFunction : torch::autograd::Function<ScaleFunction> {
  static at::Tensor forward(torch::autograd::AutogradContext* ctx, const at::Tensor& self,
                            double factor) {
    ctx->saved_data["factor"] = factor;
    at::AutoDispatchBelowADInplaceOrView guard;
    static auto op = c10::Dispatcher::singleton().findSchemaOrThrow("toy::scale", "");
    return op.typed<at::Tensor(const at::Tensor&, double)>().call(self, factor);
  }
  static torch::autograd::variable_list backward(torch::autograd::AutogradContext* ctx,
                                                 torch::autograd::variable_list grads) {
    return {grads[0] * ctx->saved_data["factor"].toDouble(), at::Tensor()};
  }
};

at::Tensor scale_autograd(const at::Tensor& self, double factor) {
  return ScaleFunction::apply(self, factor);
}

at::Tensor scale_cpu(const at::Tensor& self, double factor) { return self * factor; }

}  // namespace

TORCH_LIBRARY(toy, m) {
  m.def("scale(Tensor self, float factor) -> Tensor");
  m.def("fill_value_(Tensor(a!) self, Scalar value) -> Tensor(a!)");
}

TORCH_LIBRARY_IMPL(toy, PrivateUse1, m) {
  m.impl("scale", toy::scale);
  m.impl("fill_value_", toy::fill_value_);
}

TORCH_LIBRARY_IMPL(toy, CPU, m) { m.impl("scale", scale_cpu); }

TORCH_LIBRARY_IMPL(toy, AutogradPrivateUse1, m) { m.impl("scale", scale_autograd); }

}  // namespace toy
