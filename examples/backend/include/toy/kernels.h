// The toy device's kernels. Tensors on `toy` live in host memory, so each
// kernel works on a CPU view of the same bytes; what matters here is how
// they are registered (csrc/*.cpp), not what they compute.
#pragma once

#include <ATen/ATen.h>

namespace toy {

// Host views of toy tensors (and CPU tensors as they are).
at::Tensor AsCpu(const at::Tensor& t);

at::Tensor empty_memory_format(c10::IntArrayRef size, std::optional<at::ScalarType> dtype,
                               std::optional<at::Layout> layout, std::optional<at::Device> device,
                               std::optional<bool> pin_memory,
                               std::optional<at::MemoryFormat> memory_format);
at::Tensor empty_strided(c10::IntArrayRef size, c10::IntArrayRef stride,
                         std::optional<at::ScalarType> dtype, std::optional<at::Layout> layout,
                         std::optional<at::Device> device, std::optional<bool> pin_memory);
at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking);
at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst);
at::Tensor as_strided(const at::Tensor& self, c10::IntArrayRef size, c10::IntArrayRef stride,
                      std::optional<int64_t> storage_offset);
at::Tensor view(const at::Tensor& self, c10::IntArrayRef size);

at::Tensor add(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha);
at::Tensor sub(const at::Tensor& self, const at::Tensor& other, const at::Scalar& alpha);
at::Tensor mul(const at::Tensor& self, const at::Tensor& other);
at::Tensor neg(const at::Tensor& self);
at::Tensor reciprocal(const at::Tensor& self);
at::Tensor relu(const at::Tensor& self);

at::Tensor scale(const at::Tensor& self, double factor);
at::Tensor& fill_value_(at::Tensor& self, const at::Scalar& value);
at::Tensor shift(const at::Tensor& self, int64_t n);

}  // namespace toy
