// What a PyTorch backend registers with the dispatcher, one record per
// registration: the backend capability of docs/backend.md. Both readers of
// backend sources (Clang for C++, tree-sitter for Python) and the live
// dispatcher dump produce these records; `testmap ingest` takes them as a
// backend's capabilities.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <tuple>

namespace testmap::backend {

// What a registration gives the dispatcher.
enum class Kind {
  kKernel,       // a kernel for (op, dispatch key)
  kFallback,     // a boxed backend fallback for every op of a dispatch key
  kFallthrough,  // a fallthrough: for one op, or for every op when op is empty
  kDefinition,   // a new operator schema (TORCH_LIBRARY m.def, custom_op)
  kStub,         // a DispatchStub entry (REGISTER_PRIVATEUSE1_DISPATCH): not an op kernel
  kHook,         // device hooks, guard, allocator, generator...: not an op kernel
};

enum class Evidence {
  kStatic,   // read from the backend's sources
  kRuntime,  // read from the live dispatcher after importing the backend
};

std::string_view KindName(Kind k);
std::optional<Kind> ParseKind(std::string_view name);
std::string_view EvidenceName(Evidence e);
std::optional<Evidence> ParseEvidence(std::string_view name);

// True for kinds the dispatcher itself holds (kernel, fallback, fallthrough,
// definition); stubs and hooks live outside it and no dump can see them.
bool InDispatcher(Kind k);

struct Registration {
  // The operator overload, canonical (`aten::add.Tensor`, `aten::abs`,
  // `toy::scale`); empty for backend fallbacks and hooks. Stubs name the
  // DispatchStub in `symbol` instead.
  std::string op;
  // `PrivateUse1`, `AutogradPrivateUse1`, `AutocastPrivateUse1`, `Meta`...;
  // empty for definitions.
  std::string dispatch_key;
  Kind kind = Kind::kKernel;
  // How it was registered: `m.impl`, `m.fallback`, `m.def`,
  // `register_kernel`, `Library.impl`, `custom_op`, `dispatcher`... (the
  // vocabulary is in docs/backend.md).
  std::string mechanism;
  std::string file;  // where it was registered; relative to the scan root when under it
  int line = 0;      // 1-based; 0 when unknown
  Evidence evidence = Evidence::kStatic;

  // Optional detail; empty/false when not applicable.
  std::string macro;   // outermost macro the registration was written through
  std::string kernel;  // the function registered, as spelled or known
  std::string symbol;  // stubs: the DispatchStub; hooks: what (Allocator, DeviceGuardImpl...)
  std::string schema;  // definitions: the schema as written
  std::string packet;  // the packet (`aten::floor`) this overload was expanded from
  // A packet expansion through a filter the reader could not evaluate: the
  // overload may not actually be registered.
  bool upper_bound = false;
  // False when the reader checked `op` against torch's operator registry
  // and did not find it (the record is kept and the scan warns).
  bool in_registry = true;

  // The identity two readers agree on: (op, dispatch key, kind).
  std::tuple<std::string, std::string, Kind> Identity() const { return {op, dispatch_key, kind}; }
};

// Orders records by dispatch key, op, kind, file, line: the output order.
bool OutputOrder(const Registration& a, const Registration& b);

}  // namespace testmap::backend
