// The Python reader's model of torch: torch.ops namespaces, packets and
// overloads backed by the schema registry, and the torch.library APIs a
// backend registers through (register_kernel, impl, Library(...).impl /
// .define / .fallback, custom_op and its register_* methods, register_fake,
// register_autograd, rename_privateuse1_backend...). Each API call turns
// into the dispatcher registrations torch 2.13 makes for it.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/backend/diagnostic.h"
#include "analyzers/backend/py_object.h"
#include "analyzers/backend/registration.h"
#include "analyzers/backend/schema_registry.h"

namespace testmap::backend {

struct TorchFacts {
  const SchemaRegistry* schemas = nullptr;
  std::set<std::string> dispatch_keys;             // every DispatchKey name
  std::map<std::string, std::string> device_keys;  // `cpu` -> `CPU`
};

class TorchLibraryModel {
 public:
  TorchLibraryModel(TorchFacts facts, std::vector<Registration>* records,
                    std::vector<Diagnostic>* diagnostics);

  // A device name that means PrivateUse1 (rename_privateuse1_backend).
  void AddPrivateUse1Name(const std::string& name) { privateuse1_names_.insert(name); }
  const std::set<std::string>& privateuse1_names() const { return privateuse1_names_; }

  // `obj.attr` when obj is a torch value; null when the model has no say.
  PyRef Attribute(const PyRef& obj, const std::string& attr, const Site& site);
  // `callee(args)` when callee is a torch API, a torch object's method or a
  // registration decorator; null when the model has no say.
  PyRef Call(const PyRef& callee, const PyArgs& args, const Site& site);

  // Whether torch.ops.<packet> has the overload (`default` for the default one).
  bool HasOverload(const std::string& packet, const std::string& overload) const {
    return facts_.schemas->Find(overload == "default" ? packet : packet + "." + overload);
  }

  // Python's str() of a torch value, if it is one.
  bool Str(const PyRef& v, std::string* out) const;

  void Warn(const Site& site, std::string message);

 private:
  PyRef CallName(const std::string& name, const PyArgs& args, const Site& site);
  PyRef CallMethod(const PyRef& self, const std::string& method, const PyArgs& args,
                   const Site& site);
  PyRef CustomOp(const PyArgs& args, const Site& site);
  void CustomOpKernels(const std::string& op, const PyRef& device_types, const PyRef& fn,
                       const Site& site);

  // The canonical operator a registration API is given (`"aten::sin"`,
  // `aten.sin.default`, a custom op, `"sin"` in a Library of ns aten).
  std::string OpTarget(const PyRef& op, const std::string& ns, const Site& site,
                       const std::string& api);
  // Dispatch keys for torch.library device strings (`"cpu"`, the renamed
  // PrivateUse1 name, dispatch key names, `"default"`; None means every
  // device: CompositeExplicitAutograd).
  std::vector<std::string> DeviceKeys(const PyRef& types, const Site& site);
  void Emit(const std::string& op, const std::string& key, Kind kind, const std::string& mechanism,
            const Site& site, const PyRef& op_value, const PyRef& fn);
  void Definition(const std::string& op, const std::string& schema, const std::string& mechanism,
                  const Site& site);

  TorchFacts facts_;
  std::vector<Registration>* records_;
  std::vector<Diagnostic>* diagnostics_;
  std::set<std::string> privateuse1_names_;
  std::set<std::string> custom_ops_;                          // defined with custom_op
  std::map<std::string, std::set<std::string>> custom_keys_;  // custom op -> keys with kernels
};

}  // namespace testmap::backend
