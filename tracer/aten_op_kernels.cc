// An unboxed kernel on the recorder's key for each of ATen's operators, so
// that a recorded call is not boxed (recorded_call.h).
//
// Why: a boxed fallback makes the dispatcher box every call's arguments into
// a Stack and the kernel below unbox them again; on a loop of small ops that
// was almost all of the recorder's cost (docs/trace-format.md, "What
// recording costs"). A typed kernel reads the arguments as they are and
// redispatches them with the operator's own typed redispatch
// (at::_ops::<op>::redispatch), which is what the dispatcher's kernels do.
// Registered directly on the key, it takes the place the fallback had for
// that operator and nothing else: the dispatch table's other entries, and
// which calls reach the key, do not change.
//
// The operators are the at::_ops structs of the torch built against,
// listed at configure time from its ATen/ops/*_ops.h (tracer/CMakeLists.txt,
// aten_ops.inc). An operator whose registration fails (a C++ signature the
// dispatcher disagrees with) keeps the boxed fallback.
#include <ATen/Operators.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/impl/LocalDispatchKeySet.h>

#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

#include "tracer/recorded_call.h"

namespace testmap::tracer {
namespace {

// One kernel class per C++ signature (ATen's 3,100 operators have about
// 1,100), each operator's instance holding the operator's redispatch: the
// build compiles a kernel per signature, not per operator.
template <class Schema>
class RecordingKernel;

template <class Return, class... Args>
class RecordingKernel<Return(Args...)> final : public c10::OperatorKernel {
 public:
  using Redispatch = Return (*)(c10::DispatchKeySet, Args...);

  RecordingKernel(const c10::OperatorHandle& op, Redispatch redispatch)
      : op_(op), op_key_(op.schema().name().data()), redispatch_(redispatch) {}

  Return operator()(c10::DispatchKeySet keys, Args... args) {
    if constexpr (kStage < 2) {
      return RedispatchBelow(keys, std::forward<Args>(args)...);
    } else {
      if (HiddenFromPythonDispatch()) return RedispatchBelow(keys, std::forward<Args>(args)...);
      Summary summary;
      (summary.AddTyped(args), ...);
      if constexpr (std::is_void_v<Return>) {
        RedispatchBelow(keys, std::forward<Args>(args)...);
        Count(summary);
      } else {
        decltype(auto) result = RedispatchBelow(keys, std::forward<Args>(args)...);
        // Factory ops (empty, arange, randn, ...): dtype and device are the
        // result's.
        if (summary.n_dtypes == 0) summary.AddTyped(result);
        Count(summary);
        return result;
      }
    }
  }

 private:
  Return RedispatchBelow(c10::DispatchKeySet keys, Args... args) {
    // Ops that the kernel calls internally are not the test's calls (a
    // TorchDispatchMode is popped while its handler runs).
    c10::impl::ExcludeDispatchKeyGuard exclude(kRecorderKey);
    return redispatch_(KeysBelowRecorder(keys), std::forward<Args>(args)...);
  }

  void Count(const Summary& summary) {
    if constexpr (kStage >= 3) CountCall(op_key_, summary, op_);
  }

  c10::OperatorHandle op_;
  const void* op_key_;  // the schema's name, as the fallback keys it
  Redispatch redispatch_;
};

}  // namespace
}  // namespace testmap::tracer

// A boxed call of an operator that has a kernel here (torch.ops.aten.x(...)
// from Python, the JIT) is recorded by the boxed fallback's code, instead of
// by an unboxing wrapper per operator: the same records, and a fraction of
// the compile time.
namespace c10::impl {
template <class Schema, bool AllowLegacyTypes>
struct make_boxed_from_unboxed_functor<testmap::tracer::RecordingKernel<Schema>, AllowLegacyTypes> {
  static void call(OperatorKernel*, const OperatorHandle& op, DispatchKeySet keys, Stack* stack) {
    testmap::tracer::RecordingFallback(op, keys, stack);
  }
};
}  // namespace c10::impl

namespace testmap::tracer {
namespace {

// Registers the kernel for the operator `name`.`overload` if the operator is
// there; keeps the registration for the life of the process.
template <class Schema>
void Register(std::vector<c10::RegistrationHandleRAII>& handles, const char* name,
              const char* overload, typename RecordingKernel<Schema>::Redispatch redispatch) {
  auto& dispatcher = c10::Dispatcher::singleton();
  auto op = dispatcher.findSchema({name, overload});
  if (!op) return;
  try {
    handles.push_back(dispatcher.registerImpl(
        op->operator_name(), kRecorderKey,
        c10::KernelFunction::makeFromUnboxedFunctor<false, RecordingKernel<Schema>>(
            std::make_unique<RecordingKernel<Schema>>(*op, redispatch)),
        c10::impl::CppSignature::make<Schema>(), nullptr,
        "testmap tracer (tracer/aten_op_kernels.cc)"));
  } catch (const c10::Error&) {
    // The dispatcher knows another C++ signature for it: the fallback stays.
  }
}

[[maybe_unused]] const bool registered = [] {
  // Never destroyed: unregistering at exit would race with torch's own
  // teardown of the dispatcher.
  auto* handles = new std::vector<c10::RegistrationHandleRAII>();
#define TESTMAP_ATEN_OP(op)                                                                 \
  Register<at::_ops::op::schema>(*handles, at::_ops::op::name, at::_ops::op::overload_name, \
                                 &at::_ops::op::redispatch);
#include "aten_ops.inc"
#undef TESTMAP_ATEN_OP
  return true;
}();

}  // namespace
}  // namespace testmap::tracer
