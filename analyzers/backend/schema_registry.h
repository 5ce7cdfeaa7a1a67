// torch's operator schemas, as the backend readers need them: which
// overloads a packet (`aten.floor`) has, what each one's schema says (for
// evaluating a helper's filter such as `any(a.is_out for a in
// schema.arguments)`), and whether a registered name exists at all.
//
// Until the project's torch snapshot carries an operator registry, the
// schemas come from the --torch-python's torch through torch_probe.py
// (FromProbe below is the one place that knows that); the rest of the
// backend scan only sees this interface.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace testmap::backend {

struct SchemaArgument {
  std::string name;
  std::string type;  // as torch prints it: `Tensor`, `Scalar`, `int[]`, `Tensor?`
  bool is_out = false;
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
  bool in_dispatcher = true;  // false for TorchScript-only operators
  // `aten::add.Tensor`, `aten::abs`.
  std::string Canonical() const { return overload.empty() ? name : name + "." + overload; }
};

class SchemaRegistry {
 public:
  SchemaRegistry() = default;
  // Reads the "schemas" list of a torch_probe.py document. Throws
  // std::invalid_argument on a malformed one.
  static SchemaRegistry FromProbe(const nlohmann::json& probe);

  bool empty() const { return schemas_.empty(); }
  // Every overload of `packet` (`aten::floor`), in torch's order
  // (OpOverloadPacket.overloads()); empty when torch has no such packet.
  std::vector<const OpSchema*> Overloads(const std::string& packet) const;
  // The schema of a canonical overload name, or null.
  const OpSchema* Find(const std::string& canonical) const;
  // Every canonical overload name the dispatcher knows, for suggestions.
  std::vector<std::string> DispatcherNames() const;

 private:
  std::vector<OpSchema> schemas_;
  std::map<std::string, std::vector<size_t>> by_packet_;
  std::map<std::string, size_t> by_name_;
};

}  // namespace testmap::backend
