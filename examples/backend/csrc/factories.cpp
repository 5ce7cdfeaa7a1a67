// Factories, copies and views: what every PrivateUse1 backend registers
// first. Names as torch writes them: bare (the default overload),
// `op.overload`, and fully qualified inside TORCH_SELECTIVE_NAME.
#include <torch/library.h>

#include "toy/kernels.h"

namespace toy::factories {

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", toy::empty_memory_format);
  m.impl("empty_strided", &toy::empty_strided);
  m.impl(TORCH_SELECTIVE_NAME("aten::_copy_from"), TORCH_FN(toy::copy_from));
  m.impl(TORCH_SELECTIVE_NAME("aten::_copy_from_and_resize"), TORCH_FN(toy::copy_from_and_resize));
  m.impl("as_strided", toy::as_strided);
}

}  // namespace toy::factories
