// The Python module of the toy backend: a pybind11 `m.def`, which defines
// a Python function, not an operator. The backend scan must not take it
// for a TORCH_LIBRARY m.def.
#include <torch/extension.h>

PYBIND11_MODULE(toy_backend_C, m) {
  m.def("device_count", [] { return 1; });
  m.def("is_available", [] { return true; });
}
