// The dispatcher recorder behind tracer_api.h: kernels on DispatchKey::Fake
// that count (operator, input dtypes, device, role) per call. This file
// holds the boxed fallback, the per-thread tables the calls are counted in
// and the C interface; aten_op_kernels.cc the unboxed kernels of ATen's
// operators (recorded_call.h says how the two share the work).
//
// Why this key and not RecordFunction: RecordFunction fires for every
// Dispatcher::call, so it reports `linear` *and* the `t`/`addmm` it
// decomposes into, plus every op a kernel calls internally; telling those
// apart again needs per-op dispatch-table queries. A kernel one key below
// DispatchKey::Python is, by construction, at the level a TorchDispatchMode
// sees (see tracer_api.h), and costs nothing when the key is not included.
//
// Where a recorded call's time goes (benchmarks/tracer/trace_overhead.py
// --breakdown, docs/trace-format.md): a boxed fallback alone would cost
// about 10% on a loop of small ops (the dispatcher boxes the call's
// arguments into a Stack and the kernel below unboxes them again), which is
// why ATen's operators get typed kernels. What is the recorder's own is kept
// off locks and allocation: each thread counts into its own open-addressing
// table, so a call that repeats an (op, dtypes, device, role) already seen
// in the test is a hash, a probe and an increment.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/ivalue.h>
#include <ATen/core/stack.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/library.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "core/dtype_names.h"
#include "core/trace_format.h"
#include "tracer/recorded_call.h"
#include "tracer/tracer_api.h"

namespace {

using testmap::tracer::DtypeCode;
using testmap::tracer::kMaxDtypes;
using testmap::tracer::kRecorderKey;
using testmap::tracer::kStage;
using testmap::tracer::Summary;

// The build identity, embedded as plain bytes so that the Python loader can
// find it with a byte search in the .so before deciding to dlopen it.
extern "C" __attribute__((used)) const char kBuildMarker[] =
    "TESTMAP_TRACER_BUILD=" TESTMAP_TORCH_VERSION "\n" TESTMAP_TORCH_GIT_VERSION
    "\n" TESTMAP_VERSION;

constexpr int kRoleCount = static_cast<int>(testmap::core::kRoles.size());

struct CallKey {
  const void* op = nullptr;  // the schema's name string: unique per overload, stable
  DtypeCode dtypes = 0;
  int16_t device = -1;  // c10::DeviceType, or -1 when no tensor was involved
  uint8_t role = 0;     // index into core::kRoles
  bool operator==(const CallKey& o) const {
    return op == o.op && dtypes == o.dtypes && device == o.device && role == o.role;
  }
  uint64_t Hash() const {
    uint64_t h = reinterpret_cast<uintptr_t>(op) * 0x9E3779B97F4A7C15ull;
    h ^= (dtypes + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full;
    h ^= static_cast<uint64_t>((device + 1) | (role << 16)) * 0x165667B19E3779F9ull;
    return h ^ (h >> 29);
  }
};

struct Entry {
  CallKey key;
  const c10::OperatorHandle* handle = nullptr;  // owned by the thread's table
  uint64_t count = 0;                           // 0: empty slot
};

// One thread's calls: open addressing with linear probing, grown at 1/2
// load. A test sees tens to a few thousand distinct keys, so it stays in
// cache. The spin flag only ever meets another thread when `take` runs
// while an autograd engine thread is still recording (never in practice:
// the test is over), so taking it is one uncontended exchange.
class ThreadTable {
 public:
  ThreadTable() : slots_(256) {}

  void Add(const CallKey& key, const c10::OperatorHandle& op) {
    while (busy_.exchange(true, std::memory_order_acquire)) {
    }
    size_t mask = slots_.size() - 1;
    for (size_t i = key.Hash() & mask;; i = (i + 1) & mask) {
      Entry& e = slots_[i];
      if (e.count == 0) {
        e.key = key;
        handles_.push_back(std::make_unique<c10::OperatorHandle>(op));
        e.handle = handles_.back().get();
        e.count = 1;
        if (++used_ * 2 > slots_.size()) Grow();
        break;
      }
      if (e.key == key) {
        ++e.count;
        break;
      }
    }
    busy_.store(false, std::memory_order_release);
  }

  // Calls `fn(entry)` for every key counted since the last Drain, then
  // forgets them.
  template <class Fn>
  void Drain(Fn&& fn) {
    while (busy_.exchange(true, std::memory_order_acquire)) {
    }
    for (Entry& e : slots_) {
      if (e.count) fn(e);
      e = Entry{};
    }
    used_ = 0;
    handles_.clear();
    busy_.store(false, std::memory_order_release);
  }

 private:
  void Grow() {
    std::vector<Entry> old(slots_.size() * 2);
    old.swap(slots_);
    size_t mask = slots_.size() - 1;
    for (const Entry& e : old) {
      if (!e.count) continue;
      size_t i = e.key.Hash() & mask;
      while (slots_[i].count) i = (i + 1) & mask;
      slots_[i] = e;
    }
  }

  std::atomic<bool> busy_{false};
  std::vector<Entry> slots_;
  size_t used_ = 0;
  std::vector<std::unique_ptr<c10::OperatorHandle>> handles_;
};

// Every thread that recorded: the test's thread and the autograd engine's
// threads its backward passes ran on. Registered once per thread.
std::mutex registry_mutex;
std::vector<std::shared_ptr<ThreadTable>>& Registry() {
  static auto* tables = new std::vector<std::shared_ptr<ThreadTable>>();
  return *tables;
}

ThreadTable& ThisThreadTable() {
  thread_local std::shared_ptr<ThreadTable> table = [] {
    auto t = std::make_shared<ThreadTable>();
    std::lock_guard<std::mutex> lock(registry_mutex);
    Registry().push_back(t);
    return t;
  }();
  return *table;
}

// The role of the calls being made. The plugin sets it on the test's
// thread; a thread that never set one (an autograd engine thread running
// the test's backward while the test's thread waits in it) takes the role
// the test's thread has now.
thread_local int8_t thread_role = -1;
std::atomic<uint8_t> test_thread_role{0};

uint8_t CurrentRole() {
  return thread_role >= 0 ? static_cast<uint8_t>(thread_role)
                          : test_thread_role.load(std::memory_order_relaxed);
}

void RedispatchBelow(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                     torch::jit::Stack* stack) {
  // Ops that the kernel calls internally are not the test's calls (a
  // TorchDispatchMode is popped while its handler runs).
  c10::impl::ExcludeDispatchKeyGuard exclude(kRecorderKey);
  op.redispatchBoxed(testmap::tracer::KeysBelowRecorder(keys), stack);
}

}  // namespace

void testmap::tracer::Summary::Add(const at::Tensor& t) {
  if (!t.defined()) return;
  auto* impl = t.unsafeGetTensorImpl();
  if (impl->is_wrapped_number()) return;
  auto code =
      static_cast<uint64_t>(static_cast<int>(c10::typeMetaToScalarType(impl->dtype())) + 1) & 0xff;
  bool seen = false;
  for (int i = 0; i < n_dtypes; ++i) seen |= ((dtypes >> (8 * i)) & 0xff) == code;
  if (!seen && n_dtypes < kMaxDtypes) dtypes |= code << (8 * n_dtypes++);
  auto type = static_cast<int16_t>(impl->device_type());
  if (device == -1 || (device == static_cast<int16_t>(c10::DeviceType::CPU) &&
                       type != static_cast<int16_t>(c10::DeviceType::CPU))) {
    device = type;
  }
}

void testmap::tracer::CountCall(const void* op_key, const Summary& summary,
                                const c10::OperatorHandle& op) {
  ThisThreadTable().Add({op_key, summary.dtypes, summary.device, CurrentRole()}, op);
}

void testmap::tracer::RecordingFallback(const c10::OperatorHandle& op, c10::DispatchKeySet keys,
                                        torch::jit::Stack* stack) {
  if (kStage < 2 || HiddenFromPythonDispatch()) {
    RedispatchBelow(op, keys, stack);
    return;
  }
  const c10::FunctionSchema& schema = op.schema();
  const size_t n_args = schema.arguments().size();
  Summary summary;
  for (auto it = stack->end() - n_args; it != stack->end(); ++it) summary.Add(*it);
  RedispatchBelow(op, keys, stack);
  if (summary.n_dtypes == 0) {
    // Factory ops (empty, arange, randn, ...): dtype and device are the
    // result's.
    const size_t n_out = schema.returns().size();
    for (auto it = stack->end() - n_out; it != stack->end(); ++it) summary.Add(*it);
  }
  if constexpr (kStage >= 3) CountCall(schema.name().data(), summary, op);
}

namespace {

TORCH_LIBRARY_IMPL(_, Fake, m) {
  if constexpr (kStage == 0) {
    m.fallback(torch::CppFunction::makeFallthrough());
  } else {
    m.fallback(torch::CppFunction::makeFromBoxedFunction<&testmap::tracer::RecordingFallback>());
  }
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

int testmap_tracer_set_role(int role) {
  if (role < 0 || role >= kRoleCount) return -1;
  int previous = CurrentRole();
  thread_role = static_cast<int8_t>(role);
  test_thread_role.store(static_cast<uint8_t>(role), std::memory_order_relaxed);
  return previous;
}

char* testmap_tracer_take() {
  // Merged over threads: the same key counted on the test's thread and an
  // engine thread is one record.
  struct Merged {
    c10::OperatorHandle handle;
    uint64_t count;
  };
  std::map<std::tuple<const void*, DtypeCode, int16_t, uint8_t>, Merged> merged;
  {
    std::lock_guard<std::mutex> lock(registry_mutex);
    for (auto& table : Registry()) {
      table->Drain([&](const Entry& e) {
        auto k = std::make_tuple(e.key.op, e.key.dtypes, e.key.device, e.key.role);
        auto it = merged.find(k);
        if (it == merged.end()) it = merged.emplace(k, Merged{*e.handle, 0}).first;
        it->second.count += e.count;
      });
    }
  }
  std::vector<nlohmann::json> records;
  records.reserve(merged.size());
  for (const auto& [k, m] : merged) {
    const auto& [op_ptr, dtype_code, device_type, role] = k;
    const auto& name = m.handle.operator_name();
    std::string op = name.name;
    if (!name.overload_name.empty()) op += "." + name.overload_name;
    nlohmann::json dtypes = nlohmann::json::array();
    for (int i = 0; i < kMaxDtypes; ++i) {
      int code = static_cast<int>((dtype_code >> (8 * i)) & 0xff);
      if (code == 0) break;
      dtypes.push_back(DtypeName(code));
    }
    nlohmann::json device = nullptr;
    if (device_type >= 0) {
      device = c10::DeviceTypeName(static_cast<c10::DeviceType>(device_type), /*lower_case=*/true);
    }
    records.push_back({{"op", op},
                       {"dtypes", dtypes},
                       {"device", device},
                       {"role", std::string(testmap::core::kRoles[role])},
                       {"count", m.count}});
  }
  auto order = [](const nlohmann::json& r) {
    return std::tie(r["op"].get_ref<const std::string&>(), r["dtypes"], r["device"],
                    r["role"].get_ref<const std::string&>());
  };
  std::sort(records.begin(), records.end(),
            [&](const nlohmann::json& a, const nlohmann::json& b) { return order(a) < order(b); });
  std::string text = nlohmann::json(records).dump();
  char* out = static_cast<char*>(std::malloc(text.size() + 1));
  std::memcpy(out, text.c_str(), text.size() + 1);
  return out;
}

void testmap_tracer_free(char* text) { std::free(text); }

}  // extern "C"
