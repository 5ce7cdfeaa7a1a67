// Arithmetic kernels, in a second TORCH_LIBRARY_IMPL(aten, PrivateUse1)
// block and another C++ namespace: kernels as functions, pointers,
// TORCH_FN, lambdas and boxed functions, calls split over lines, the
// backend's own macros, a helper handed the library, and a DispatchStub
// entry (which is not an operator registration).
#include <ATen/native/DispatchStub.h>
#include <ATen/native/UnaryOps.h>
#include <torch/library.h>

#include "toy/kernels.h"
#include "toy/registration.h"

namespace toy::math {
namespace {

// A boxed kernel: takes the operator's arguments off the stack.
void boxed_abs(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  at::Tensor self = torch::jit::pop(*stack).toTensor();
  at::Tensor cpu = toy::AsCpu(self).abs();
  at::Tensor out = at::empty(cpu.sizes(), self.options());
  toy::copy_from(cpu, out, false);
  torch::jit::push(*stack, out);
}

// The DispatchStub entry ATen's own abs kernel would call on toy tensors.
void abs_kernel(at::TensorIteratorBase& iter) {
  TORCH_CHECK(false, "toy: abs_stub is only registered, not implemented");
}

// Views, registered through a helper that is handed the library.
void RegisterViews(torch::Library& m) { m.impl("view", toy::view); }

}  // namespace

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  TOY_IMPL_OVERLOAD(add, Tensor, toy::add);
  m.impl("sub.Tensor", TORCH_FN(toy::sub));
  m.impl("mul.Tensor",
         [](const at::Tensor& self, const at::Tensor& other) { return toy::mul(self, other); });
  m.impl("abs", torch::CppFunction::makeFromBoxedFunction<&boxed_abs>());
  TOY_UNARY(neg);
  TOY_UNARY(reciprocal);
  RegisterViews(m);
}

}  // namespace toy::math

namespace at::native {
REGISTER_PRIVATEUSE1_DISPATCH(abs_stub, &toy::math::abs_kernel)
}  // namespace at::native
