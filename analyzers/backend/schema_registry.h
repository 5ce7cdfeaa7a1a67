// torch's operator schemas, as the backend readers need them: which
// overloads a packet (`aten.floor`) has, what each one's schema says (for
// evaluating a helper's filter such as `any(a.is_out for a in
// schema.arguments)`), whether a registered name exists at all, and which
// dispatch keys torch itself has kernels for. Built from the torch
// snapshot's operator registry (analyzers/torch_snapshot), whose schema
// strings are parsed here into arguments and returns.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::torch_snapshot {
struct TorchSnapshot;
}

namespace testmap::backend {

struct SchemaArgument {
  std::string name;
  std::string type;     // as torch prints it: `Tensor`, `Scalar`, `int[]`, `Tensor?` (no alias)
  bool is_out = false;  // a keyword-only argument written to (`*, Tensor(a!) out`)
  bool kwarg_only = false;
  bool is_write = false;   // alias annotation with `!`
  bool has_alias = false;  // any alias annotation
};

struct OpSchema {
  std::string name;      // `aten::add`
  std::string overload;  // `Tensor`; empty for the default overload
  std::string text;      // the whole schema, as str(FunctionSchema)
  std::vector<SchemaArgument> arguments, returns;
  bool is_mutable = false;
  const void* snapshot_entry = nullptr;  // the torch_snapshot::OperatorEntry
  // Only TorchScript has it: packet.overloads() lists it, no dispatch key
  // ever calls a kernel registered for it.
  bool torchscript_only = false;
  // `aten::add.Tensor`, `aten::abs`.
  std::string Canonical() const { return overload.empty() ? name : name + "." + overload; }
};

// Parses `aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`.
// Returns false on text that is not a schema.
bool ParseSchema(std::string_view text, OpSchema* out);

class SchemaRegistry {
 public:
  SchemaRegistry() = default;
  // Every operator of the snapshot's registry. The snapshot must outlive
  // the registry (HasKernel reads it).
  static SchemaRegistry FromSnapshot(const torch_snapshot::TorchSnapshot& snapshot);

  // Adds overloads the snapshot leaves out (torch_probe.h), by schema.
  void AddTorchScriptOnly(const std::vector<std::string>& schemas);

  bool empty() const { return schemas_.empty(); }
  // Every overload of `packet` (`aten::floor`); empty when torch has none.
  std::vector<const OpSchema*> Overloads(const std::string& packet) const;
  // The schema of a canonical overload name, or null.
  const OpSchema* Find(const std::string& canonical) const;
  // Whether torch registers a kernel for the overload on `key`; nullopt
  // when unknown (no such overload, or a key the snapshot does not record).
  std::optional<bool> HasKernel(const std::string& canonical, const std::string& key) const;
  // Every canonical overload name the dispatcher knows, for suggestions.
  std::vector<std::string> Names() const;

 private:
  void Index(size_t from);
  const torch_snapshot::TorchSnapshot* snapshot_ = nullptr;
  std::vector<OpSchema> schemas_;
  std::map<std::string, std::vector<size_t>> by_packet_;
  std::map<std::string, size_t> by_name_;
};

}  // namespace testmap::backend
