// The dispatcher recorder behind tracer_api.h: a boxed fallback on
// DispatchKey::Fake that counts (operator, input dtypes, device) per call.
//
// Why this key and not RecordFunction: RecordFunction fires for every
// Dispatcher::call, so it reports `linear` *and* the `t`/`addmm` it
// decomposes into, plus every op a kernel calls internally; telling those
// apart again needs per-op dispatch-table queries. A fallback one key below
// DispatchKey::Python is, by construction, at the level a TorchDispatchMode
// sees (see tracer_api.h), and costs nothing when the key is not included.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/stack.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/dtype_names.h"
#include "tracer/tracer_api.h"

namespace {

constexpr c10::DispatchKey kRecorderKey = c10::DispatchKey::Fake;

// The build identity, embedded as plain bytes so that the Python loader can
// find it with a byte search in the .so before deciding to dlopen it.
extern "C" __attribute__((used)) const char kBuildMarker[] =
    "TESTMAP_TRACER_BUILD=" TESTMAP_TORCH_VERSION "\n" TESTMAP_TORCH_GIT_VERSION
    "\n" TESTMAP_VERSION;

// Up to 8 distinct dtypes, in order of first appearance, one byte each
// (ScalarType + 1, so 0 means "none"). More than 8 distinct input dtypes in
// one call does not occur in ATen's schemas; extra ones would be dropped.
using DtypeCode = uint64_t;
constexpr int kMaxDtypes = 8;

struct CallKey {
  const void* op;  // the OperatorDef behind an OperatorHandle: stable
  DtypeCode dtypes;
  int16_t device;  // c10::DeviceType, or -1 when no tensor was involved
  bool operator==(const CallKey& o) const {
    return op == o.op && dtypes == o.dtypes && device == o.device;
  }
};

struct CallKeyHash {
  size_t operator()(const CallKey& k) const {
    uint64_t h = reinterpret_cast<uintptr_t>(k.op) * 0x9E3779B97F4A7C15ull;
    h ^= k.dtypes + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2);
    h ^= static_cast<uint64_t>(k.device + 1) * 0xC2B2AE3D27D4EB4Full;
    return static_cast<size_t>(h);
  }
};

struct CallStats {
  c10::OperatorHandle handle;
  uint64_t count = 0;
};

// Calls arrive from the test's thread and from autograd engine threads at
// the same time, so the table is shared and locked. The lock is
// uncontended in practice (the engine runs CPU work on the caller thread)
// and costs far less than the boxed call around it.
std::mutex table_mutex;
std::unordered_map<CallKey, CallStats, CallKeyHash> table;

// The Python-side rule, mirrored: dtypes of tensor inputs in schema order,
// distinct; wrapped numbers (`x + 2`) are Python scalars to a
// TorchDispatchMode and are skipped; the device is the first non-CPU input's,
// else CPU if any tensor came in.
struct Summary {
  DtypeCode dtypes = 0;
  int n_dtypes = 0;
  int16_t device = -1;

  void Add(const at::Tensor& t) {
    if (!t.defined()) return;
    auto* impl = t.unsafeGetTensorImpl();
    if (impl->is_wrapped_number()) return;
    auto code = static_cast<uint64_t>(static_cast<int>(t.scalar_type()) + 1) & 0xff;
    bool seen = false;
    for (int i = 0; i < n_dtypes; ++i) seen |= ((dtypes >> (8 * i)) & 0xff) == code;
    if (!seen && n_dtypes < kMaxDtypes) dtypes |= code << (8 * n_dtypes++);
    auto type = static_cast<int16_t>(t.device().type());
    if (device == -1 || (device == static_cast<int16_t>(c10::DeviceType::CPU) &&
                         type != static_cast<int16_t>(c10::DeviceType::CPU))) {
      device = type;
    }
  }

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
};

void RedispatchBelow(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                     torch::jit::Stack* stack) {
  // Ops that the kernel calls internally are not the test's calls (a
  // TorchDispatchMode is popped while its handler runs).
  c10::impl::ExcludeDispatchKeyGuard exclude(kRecorderKey);
  op.redispatchBoxed(keys & c10::DispatchKeySet(c10::DispatchKeySet::FULL_AFTER, kRecorderKey),
                     stack);
}

void RecordingFallback(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                       torch::jit::Stack* stack) {
  // Code that explicitly hides calls from Python dispatch (no_python_dispatch,
  // _DisableTorchDispatch, Tensor._make_subclass's internal detach) hides
  // them from a TorchDispatchMode: hide them here too.
  if (c10::impl::tls_is_dispatch_key_excluded(c10::DispatchKey::Python)) {
    RedispatchBelow(op, keys, stack);
    return;
  }
  const size_t n_args = op.schema().arguments().size();
  Summary summary;
  for (auto it = stack->end() - n_args; it != stack->end(); ++it) summary.Add(*it);
  RedispatchBelow(op, keys, stack);
  if (summary.n_dtypes == 0) {
    // Factory ops (empty, arange, randn, ...): dtype and device are the
    // result's.
    const size_t n_out = op.schema().returns().size();
    for (auto it = stack->end() - n_out; it != stack->end(); ++it) summary.Add(*it);
  }
  CallKey key{op.schema().name().data(), summary.dtypes, summary.device};
  // The address of the schema's name string is owned by the OperatorDef and
  // unique per operator overload for the life of the process.
  std::lock_guard<std::mutex> lock(table_mutex);
  auto [it, inserted] = table.try_emplace(key, CallStats{op, 0});
  ++it->second.count;
}

TORCH_LIBRARY_IMPL(_, Fake, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&RecordingFallback>());
}

// Per-thread recording state: enabled by the plugin, suspended (nesting)
// while torch.compile works.
thread_local bool enabled = false;
thread_local int suspended = 0;

void ApplyThreadState() {
  c10::impl::tls_set_dispatch_key_included(kRecorderKey, enabled && suspended == 0);
}

std::string DtypeName(int code) {
  auto c10_name = std::string(c10::toString(static_cast<c10::ScalarType>(code - 1)));
  // c10 names (Float, BFloat16) -> torch names (float32, bfloat16).
  auto name = testmap::core::NormalizeDtype(c10_name);
  return name ? *name : c10_name;
}

}  // namespace

extern "C" {

const char* testmap_tracer_build_info() {
  return kBuildMarker + std::strlen("TESTMAP_TRACER_BUILD=");
}

void testmap_tracer_enable(int on) {
  enabled = on != 0;
  ApplyThreadState();
}

void testmap_tracer_suspend(int on) {
  suspended = std::max(0, suspended + (on ? 1 : -1));
  ApplyThreadState();
}

char* testmap_tracer_take() {
  std::unordered_map<CallKey, CallStats, CallKeyHash> taken;
  {
    std::lock_guard<std::mutex> lock(table_mutex);
    taken.swap(table);
  }
  std::vector<nlohmann::json> records;
  records.reserve(taken.size());
  for (const auto& [key, stats] : taken) {
    const auto& name = stats.handle.operator_name();
    std::string op = name.name;
    if (!name.overload_name.empty()) op += "." + name.overload_name;
    nlohmann::json dtypes = nlohmann::json::array();
    for (int i = 0; i < kMaxDtypes; ++i) {
      int code = static_cast<int>((key.dtypes >> (8 * i)) & 0xff);
      if (code == 0) break;
      dtypes.push_back(DtypeName(code));
    }
    nlohmann::json device = nullptr;
    if (key.device >= 0) {
      device = c10::DeviceTypeName(static_cast<c10::DeviceType>(key.device), /*lower_case=*/true);
    }
    records.push_back({{"op", op}, {"dtypes", dtypes}, {"device", device}, {"count", stats.count}});
  }
  std::sort(records.begin(), records.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return std::tie(a["op"].get_ref<const std::string&>(), a["dtypes"], a["device"]) <
           std::tie(b["op"].get_ref<const std::string&>(), b["dtypes"], b["device"]);
  });
  std::string text = nlohmann::json(records).dump();
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

void testmap_tracer_free(char* text) { std::free(text); }

}  // extern "C"
