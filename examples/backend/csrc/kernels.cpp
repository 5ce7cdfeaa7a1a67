// Kernel bodies only: nothing here registers anything, so the backend
// scan's text prefilter never hands this file to Clang.
#include "toy/kernels.h"

#include <ATen/EmptyTensor.h>
#include <ATen/NativeFunctions.h>
#include <c10/core/CPUAllocator.h>

namespace toy {

at::Tensor AsCpu(const at::Tensor& t) {
  if (t.is_cpu()) return t;
  return at::from_blob(t.data_ptr(), t.sizes(), t.strides(), t.options().device(at::kCPU));
}

at::Tensor empty_memory_format(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                               std::optional<at::Layout> layout, std::optional<at::Device> device,
                               std::optional<bool> pin_memory,
                               std::optional<at::MemoryFormat> memory_format) {
  return at::detail::empty_generic(size, c10::GetAllocator(c10::DeviceType::PrivateUse1),
                                   c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                   c10::dtype_or_default(dtype), memory_format);
}

at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                         std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                         std::optional<at::Device> device, std::optional<bool> pin_memory) {
  return at::detail::empty_strided_generic(
      size, stride, c10::GetAllocator(c10::DeviceType::PrivateUse1),
      c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), c10::dtype_or_default(dtype));
}

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  AsCpu(dst).copy_(AsCpu(self));
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  TORCH_CHECK(self.sizes() == dst.sizes(), "toy: _copy_from_and_resize cannot resize");
  return copy_from(self, dst, false);
}

at::Tensor as_strided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                      std::optional<int64_t> storage_offset) {
  return at::native::as_strided_tensorimpl(self, size, stride, storage_offset);
}

at::Tensor view(const at::Tensor& self, c10::IntArrayRef size) {
  return at::native::view(self, size);
}

namespace {
// Runs a CPU computation and brings the result back to the toy device.
at::Tensor OnDevice(const at::Tensor& like, const at::Tensor& cpu_result) {
  at::Tensor out = empty_strided(cpu_result.sizes(), cpu_result.strides(), cpu_result.scalar_type(),
                                 std::nullopt, like.device(), std::nullopt);
  return copy_from(cpu_result, out, false);
}
}  // namespace

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  return OnDevice(self, at::add(AsCpu(self), AsCpu(other), alpha));
}
at::Tensor sub(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha) {
  return OnDevice(self, at::sub(AsCpu(self), AsCpu(other), alpha));
}
at::Tensor mul(const at::Tensor& self, const at::Tensor& other) {
  return OnDevice(self, at::mul(AsCpu(self), AsCpu(other)));
}
at::Tensor neg(const at::Tensor& self) { return OnDevice(self, at::neg(AsCpu(self))); }
at::Tensor reciprocal(const at::Tensor& self) {
  return OnDevice(self, at::reciprocal(AsCpu(self)));
}
at::Tensor relu(const at::Tensor& self) { return OnDevice(self, at::relu(AsCpu(self))); }

at::Tensor scale(const at::Tensor& self, double factor) {
  return OnDevice(self, AsCpu(self) * factor);
}
at::Tensor& fill_value_(at::Tensor& self, const at::Scalar& value) {
  AsCpu(self).fill_(value);
  return self;
}
at::Tensor shift(const at::Tensor& self, int64_t n) { return self + n; }

}  // namespace toy
