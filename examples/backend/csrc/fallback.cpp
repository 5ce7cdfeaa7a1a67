// Every operator without a toy kernel runs on the CPU: one boxed fallback
// for the whole PrivateUse1 key, on the reserved namespace `_`.
#include <ATen/native/CPUFallback.h>
#include <torch/library.h>

namespace toy {
namespace {

void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  at::native::cpu_fallback(op, stack);
}

}  // namespace

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}

}  // namespace toy
