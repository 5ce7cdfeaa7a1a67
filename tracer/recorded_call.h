// What the recorder's two entry points share (internal to
// libtestmap_tracer.so): the key it sits on, the summary of a call's dtypes
// and device, and counting a summarized call.
//
// Calls reach the recorder two ways. ATen's operators have an unboxed kernel
// each on the recorder's key (aten_op_kernels.cc): it reads the typed
// arguments and redispatches them typed, so nothing is boxed. Every other
// operator (a custom op, a torch.library op) and every boxed call
// (torch.ops.aten.x.default(...) from Python, the JIT) reaches the boxed
// fallback (dispatch_recorder.cc), which reads the same from the Stack. Both
// summarize a call with Summary and count it with CountCall, so a call
// records the same whichever way it came.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <cstdint>
#include <optional>
#include <tuple>
#include <type_traits>
#include <vector>

namespace testmap::tracer {

// A fallback one key below DispatchKey::Python (see tracer_api.h).
constexpr c10::DispatchKey kRecorderKey = c10::DispatchKey::Fake;

// How much of a recorded call this build does, for measuring where the time
// goes (benchmarks/tracer builds the partial ones; the library is stage 3):
//   0  the key is included, but as a fallthrough: the key set's cost alone;
//   1  the kernels only: redispatch below the key (ATen ops typed, others
//      boxed);
//   2  + the Python-exclusion check and the (dtypes, device) summary;
//   3  + counting the call in the thread's table: what the recorder does.
// The build testmap_tracer_boxed leaves out aten_op_kernels.cc, so that
// every call takes the boxed fallback (the recorder before typed kernels).
#ifndef TESTMAP_TRACER_STAGE
#define TESTMAP_TRACER_STAGE 3
#endif
constexpr int kStage = TESTMAP_TRACER_STAGE;

// The keys a recorded call is redispatched to: those below the recorder's.
inline c10::DispatchKeySet KeysBelowRecorder(c10::DispatchKeySet keys) {
  return keys & c10::DispatchKeySet(c10::DispatchKeySet::FULL_AFTER, kRecorderKey);
}

// Code that explicitly hides calls from Python dispatch (no_python_dispatch,
// _DisableTorchDispatch, Tensor._make_subclass's internal detach) hides them
// from a TorchDispatchMode: such calls are not recorded either.
inline bool HiddenFromPythonDispatch() {
  return c10::impl::tls_is_dispatch_key_excluded(c10::DispatchKey::Python);
}

// Up to 8 distinct dtypes, in order of first appearance, one byte each
// (ScalarType + 1, so 0 means "none"). More than 8 distinct input dtypes in
// one call does not occur in ATen's schemas; extra ones would be dropped.
using DtypeCode = uint64_t;
constexpr int kMaxDtypes = 8;

// The Python-side rule, mirrored: dtypes of tensor inputs in schema order,
// distinct; wrapped numbers (`x + 2`) are Python scalars to a
// TorchDispatchMode and are skipped; the device is the first non-CPU input's,
// else CPU if any tensor came in. Fed either IValues from a Stack or the
// typed arguments of a kernel; the two read the same tensors.
struct Summary {
  DtypeCode dtypes = 0;
  int n_dtypes = 0;
  int16_t device = -1;  // c10::DeviceType, or -1 when no tensor was involved

  // Out of line: aten_op_kernels.cc calls it from thousands of kernels.
  void Add(const at::Tensor& t);

  // A boxed argument or result.
  void Add(const c10::IValue& v) {
    if (v.isTensor()) {
      Add(v.toTensor());
    } else if (v.isTensorList()) {
      for (const at::Tensor& t : v.toTensorList()) Add(t);
    } else if (v.isList()) {
      // List[Optional[Tensor]] (index, index_put) and friends.
      for (const c10::IValue& e : v.toListRef()) {
        if (e.isTensor()) Add(e.toTensor());
      }
    }
  }

  // A typed argument or result: the C++ types ATen's schemas give tensors
  // (Tensor, Tensor?, Tensor[], Tensor?[], tuples and lists of results).
  // No other type in ATen's schemas holds a tensor.
  template <class T>
  void AddTyped(const T& v) {
    using D = std::decay_t<T>;
    if constexpr (std::is_same_v<D, at::Tensor>) {
      Add(v);
    } else if constexpr (std::is_same_v<D, std::optional<at::Tensor>>) {
      if (v.has_value()) Add(*v);
    } else if constexpr (std::is_same_v<D, at::TensorList> ||
                         std::is_same_v<D, std::vector<at::Tensor>> ||
                         std::is_same_v<D, at::ITensorListRef>) {
      for (const at::Tensor& t : v) Add(t);
    } else if constexpr (std::is_same_v<D, c10::List<std::optional<at::Tensor>>>) {
      for (const std::optional<at::Tensor>& t : v) {
        if (t.has_value()) Add(*t);
      }
    } else if constexpr (IsTuple<D>::value) {
      std::apply([&](const auto&... e) { (AddTyped(e), ...); }, v);
    }
  }

  template <class T>
  struct IsTuple : std::false_type {};
  template <class... E>
  struct IsTuple<std::tuple<E...>> : std::true_type {};
};

// Counts one call of `op` (whose schema name is at `op_key`) in the calling
// thread's table, with the role the thread is in.
void CountCall(const void* op_key, const Summary& summary, const c10::OperatorHandle& op);

// The boxed fallback: records a call that came boxed and redispatches it.
void RecordingFallback(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                       torch::jit::Stack* stack);

}  // namespace testmap::tracer
