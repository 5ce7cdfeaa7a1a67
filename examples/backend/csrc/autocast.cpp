// Autocast for the toy device: a fallthrough for every op, then casting
// policies per op with torch's KERNEL_PRIVATEUSEONE macro in both forms,
// (op, policy) and (op, overload, policy), and one op whose autocast is
// skipped explicitly.
#include <ATen/autocast_mode.h>
#include <torch/library.h>

namespace toy {

TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) { m.fallback(torch::CppFunction::makeFallthrough()); }

TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
  KERNEL_PRIVATEUSEONE(mm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(bmm, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(matmul, lower_precision_fp)
  KERNEL_PRIVATEUSEONE(pow, Tensor_Scalar, fp32)
  KERNEL_PRIVATEUSEONE(pow, Tensor_Tensor, fp32)
  KERNEL_PRIVATEUSEONE(conv2d, padding, lower_precision_fp)
  m.impl("relu", torch::CppFunction::makeFallthrough());
}

}  // namespace toy
