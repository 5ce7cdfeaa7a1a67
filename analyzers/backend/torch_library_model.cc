#include "analyzers/backend/torch_library_model.h"

namespace testmap::backend {
namespace {

using K = PyObject::Kind;

std::string FunctionName(const PyRef& fn) {
  if (!fn) return "";
  if (fn->Is(K::kFunction)) return fn->name;
  if (fn->Is(K::kName)) return fn->text.substr(fn->text.rfind('.') + 1);
  return "";
}

bool IsFallthrough(const PyRef& fn) {
  return fn && fn->Is(K::kName) && fn->text == "torch.library.fallthrough_kernel";
}

// The API a dotted name refers to: `torch.library.impl` -> `impl`; empty
// when it is not a torch.library name.
std::string LibraryApi(const std::string& name) {
  for (const char* prefix : {"torch.library.", "torch._library.custom_ops."})
    if (name.rfind(prefix, 0) == 0) return name.substr(std::string(prefix).size());
  return "";
}

PyRef Decorator(std::function<void(const PyRef&, const Site&)> apply) {
  PyRef d = PyObject::Make(K::kDecorator);
  d->apply = std::move(apply);
  return d;
}

PyRef Method(const PyRef& self, const std::string& name) {
  PyRef m = PyObject::Make(K::kBoundMethod, name);
  m->self = self;
  return m;
}

std::string SchemaName(const std::string& schema) {
  std::string name = schema.substr(0, schema.find('('));
  while (!name.empty() && name.back() == ' ') name.pop_back();
  return name;
}

std::string PacketOf(const std::string& canonical) {
  size_t ns = canonical.find("::");
  size_t dot = canonical.find('.', ns == std::string::npos ? 0 : ns + 2);
  return dot == std::string::npos ? canonical : canonical.substr(0, dot);
}

}  // namespace

TorchLibraryModel::TorchLibraryModel(TorchFacts facts, std::vector<Registration>* records,
                                     std::vector<Diagnostic>* diagnostics)
    : facts_(std::move(facts)), records_(records), diagnostics_(diagnostics) {}

void TorchLibraryModel::Warn(const Site& site, std::string message) {
  diagnostics_->push_back(
      {Diagnostic::Severity::kWarning, site.file, site.line, std::move(message)});
}

bool TorchLibraryModel::Str(const PyRef& v, std::string* out) const {
  switch (v->kind) {
    case K::kOpOverload: {
      // str(aten.add.Tensor) is `aten.add.Tensor`; the default overload prints `.default`.
      std::string s = v->text;
      size_t ns = s.find("::");
      if (ns != std::string::npos) s.replace(ns, 2, ".");
      if (v->schema && v->schema->overload.empty()) s += ".default";
      *out = s;
      return true;
    }
    case K::kOpPacket: {
      std::string s = v->text;
      size_t ns = s.find("::");
      if (ns != std::string::npos) s.replace(ns, 2, ".");
      *out = s;
      return true;
    }
    case K::kTypeRepr:
      *out = v->text;
      return true;
    case K::kSchema:
      *out = v->schema ? v->schema->text : "";
      return v->schema != nullptr;
    default:
      return false;
  }
}

PyRef TorchLibraryModel::Attribute(const PyRef& obj, const std::string& attr, const Site& site) {
  switch (obj->kind) {
    case K::kName: {
      if (obj->text == "torch.ops" && attr != "load_library" && attr != "import_module")
        return PyObject::Make(K::kOpNamespace, attr);
      return PyObject::Make(K::kName, obj->text + "." + attr);
    }
    case K::kOpNamespace: {
      std::string packet = obj->text + "::" + attr;
      PyRef p = PyObject::Make(K::kOpPacket, packet);
      p->file = site.file;
      p->line = site.line;
      // torch.ops.aten.<missing> raises at import; custom namespaces are
      // usually defined by the backend itself, so only torch's are checked.
      p->b = !facts_.schemas->Overloads(packet).empty();
      if (!p->b && obj->text == "aten")
        Warn(site, "torch.ops.aten has no operator " + attr + " in torch's operator registry");
      return p;
    }
    case K::kOpPacket: {
      if (attr == "overloads") return Method(obj, attr);
      if (attr == "_qualified_op_name") return PyObject::Str(obj->text);
      if (attr == "__name__") return PyObject::Str(obj->text.substr(obj->text.find("::") + 2));
      std::string overload = attr == "default" ? "" : attr;
      std::string canonical = overload.empty() ? obj->text : obj->text + "." + overload;
      PyRef o = PyObject::Make(K::kOpOverload, canonical);
      o->schema = facts_.schemas->Find(canonical);
      o->file = obj->file.empty() ? site.file : obj->file;
      o->line = obj->file.empty() ? site.line : obj->line;
      o->maybe = obj->maybe;
      if (!o->schema && obj->b)
        Warn(site, "torch has no overload " + canonical + " in its operator registry");
      return o;
    }
    case K::kOpOverload: {
      if (attr == "_schema") {
        if (!obj->schema) return PyObject::Unknown(obj->text + "._schema");
        PyRef s = PyObject::Make(K::kSchema);
        s->schema = obj->schema;
        return s;
      }
      if (attr == "_name") return PyObject::Str(obj->text);
      if (attr == "name") return Method(obj, attr);
      if (attr == "overloadpacket") {
        PyRef p = PyObject::Make(K::kOpPacket, PacketOf(obj->text));
        p->b = true;
        return p;
      }
      if (attr == "_overloadname") {
        size_t dot = obj->text.find('.', obj->text.find("::") + 2);
        return PyObject::Str(dot == std::string::npos ? "default" : obj->text.substr(dot + 1));
      }
      if (attr == "namespace") return PyObject::Str(obj->text.substr(0, obj->text.find("::")));
      return nullptr;
    }
    case K::kSchema: {
      const OpSchema* s = obj->schema;
      if (attr == "arguments" || attr == "returns") {
        PyRef list = PyObject::List({});
        for (const auto& a : attr == "arguments" ? s->arguments : s->returns) {
          PyRef v = PyObject::Make(K::kSchemaArg);
          v->arg = &a;
          list->items.push_back(v);
        }
        return list;
      }
      if (attr == "name") return PyObject::Str(s->name);
      if (attr == "overload_name") return PyObject::Str(s->overload);
      if (attr == "is_mutable") return PyObject::Bool(s->is_mutable);
      return nullptr;
    }
    case K::kSchemaArg: {
      const SchemaArgument* a = obj->arg;
      if (attr == "name") return PyObject::Str(a->name);
      if (attr == "is_out") return PyObject::Bool(a->is_out);
      if (attr == "kwarg_only") return PyObject::Bool(a->kwarg_only);
      if (attr == "type") return PyObject::Make(K::kTypeRepr, a->type);
      if (attr == "alias_info") {
        if (!a->has_alias) return PyObject::None();
        PyRef info = PyObject::Make(K::kAliasInfo);
        info->b = a->is_write;
        return info;
      }
      return nullptr;
    }
    case K::kAliasInfo:
      if (attr == "is_write") return PyObject::Bool(obj->b);
      return nullptr;
    case K::kLibrary:
      if (attr == "ns") return PyObject::Str(obj->text);
      if (attr == "dispatch_key") return PyObject::Str(obj->lib_key);
      if (attr == "kind") return PyObject::Str(obj->lib_kind);
      return Method(obj, attr);
    case K::kCustomOp:
      if (attr == "_opoverload") {
        PyRef o = PyObject::Make(K::kOpOverload, obj->text);
        return o;
      }
      return Method(obj, attr);
    default:
      return nullptr;
  }
}

std::string TorchLibraryModel::OpTarget(const PyRef& op, const std::string& ns, const Site& site,
                                        const std::string& api) {
  if (!op) {
    Warn(site, api + ": no operator given");
    return "";
  }
  switch (op->kind) {
    case K::kStr:
      if (op->text.find("::") != std::string::npos) return op->text;
      if (ns.empty()) {
        Warn(site, api + "(\"" + op->text + "\"): the name needs a namespace (\"aten::...\")");
        return "";
      }
      return ns + "::" + op->text;
    case K::kOpOverload:
    case K::kCustomOp:
      return op->text;
    case K::kOpPacket:
      Warn(site, api + " was given the packet " + op->text +
                     ", not an overload: torch rejects it (use .default or an overload)");
      return "";
    default:
      Warn(site, api + ": the operator is not known statically (" + op->text + ")");
      return "";
  }
}

std::vector<std::string> TorchLibraryModel::DeviceKeys(const PyRef& types, const Site& site) {
  std::vector<std::string> keys;
  if (!types || types->Is(K::kNone)) return {"CompositeExplicitAutograd"};
  std::vector<PyRef> items = types->IsSequence() ? types->items : std::vector<PyRef>{types};
  for (const auto& t : items) {
    if (!t->Is(K::kStr)) {
      Warn(site,
           "device type not known statically (" + t->text + "): its registration is not read");
      continue;
    }
    const std::string& d = t->text;
    std::string key;
    if (facts_.dispatch_keys.count(d))
      key = d;
    else if (d == "default")
      key = "CompositeExplicitAutograd";
    else if (privateuse1_names_.count(d))
      key = "PrivateUse1";
    else if (auto it = facts_.device_keys.find(d); it != facts_.device_keys.end())
      key = it->second;
    if (key.empty()) {
      Warn(site, "device type \"" + d +
                     "\" is neither torch's nor a renamed PrivateUse1 backend "
                     "(rename_privateuse1_backend): its registration is not read");
      continue;
    }
    keys.push_back(key);
  }
  return keys;
}

void TorchLibraryModel::Emit(const std::string& op, const std::string& key, Kind kind,
                             const std::string& mechanism, const Site& site, const PyRef& op_value,
                             const PyRef& fn) {
  Registration r;
  r.op = op;
  r.dispatch_key = key;
  r.kind = kind;
  r.mechanism = mechanism;
  r.file = site.file;
  r.line = site.line;
  if (op_value && !op_value->file.empty()) {
    r.file = op_value->file;
    r.line = op_value->line;
  }
  r.upper_bound = site.uncertain || (op_value && op_value->maybe);
  if (op_value && op_value->Is(K::kOpOverload)) r.packet = op_value->name;
  if (kind != Kind::kFallthrough) r.kernel = FunctionName(fn);
  records_->push_back(std::move(r));
}

void TorchLibraryModel::Definition(const std::string& op, const std::string& schema,
                                   const std::string& mechanism, const Site& site) {
  Registration r;
  r.op = op;
  r.kind = Kind::kDefinition;
  r.mechanism = mechanism;
  r.file = site.file;
  r.line = site.line;
  r.schema = schema;
  r.upper_bound = site.uncertain;
  records_->push_back(std::move(r));
}

void TorchLibraryModel::CustomOpKernels(const std::string& op, const PyRef& device_types,
                                        const PyRef& fn, const Site& site) {
  for (const auto& key : DeviceKeys(device_types, site))
    if (custom_keys_[op].insert(key).second)
      Emit(op, key, Kind::kKernel, "custom_op", site, nullptr, fn);
}

PyRef TorchLibraryModel::CustomOp(const PyArgs& args, const Site& site) {
  PyRef name = args.Get(0, "name");
  if (!name || !name->Is(K::kStr) || name->text.find("::") == std::string::npos) {
    Warn(site, "custom_op with a name that is not a literal \"ns::name\": not read");
    return PyObject::Unknown("custom_op");
  }
  std::string op = name->text;
  PyRef mutates = args.Get(99, "mutates_args");
  PyRef device_types = args.Get(99, "device_types");
  PyRef schema = args.Get(99, "schema");
  auto apply = [this, op, mutates, device_types, schema](const PyRef& fn, const Site& at) {
    custom_ops_.insert(op);
    Definition(op, schema && schema->Is(K::kStr) ? schema->text : "", "custom_op", at);
    // What CustomOpDef._register_to_dispatcher registers in torch 2.13.
    Emit(op, "Meta", Kind::kKernel, "custom_op", at, nullptr, fn);
    Emit(op, "Autograd", Kind::kKernel, "custom_op", at, nullptr, fn);
    bool mutable_op = mutates && ((mutates->IsSequence() && !mutates->items.empty()) ||
                                  (mutates->Is(K::kStr) && mutates->text == "unknown"));
    if (mutates && !mutates->IsSequence() && !mutates->Is(K::kStr))
      Warn(at, "custom_op " + op + ": mutates_args not known statically");
    if (mutable_op) Emit(op, "ADInplaceOrView", Kind::kKernel, "custom_op", at, nullptr, fn);
    CustomOpKernels(op, device_types, fn, at);
    // Operators without tensor inputs pick their backend by the device
    // argument, through a BackendSelect kernel.
    if (device_types && !device_types->Is(K::kNone) && fn && fn->Is(K::kFunction) &&
        fn->signature.find("Tensor") == std::string::npos)
      Emit(op, "BackendSelect", Kind::kKernel, "custom_op", at, nullptr, fn);
  };
  PyRef result = PyObject::Make(K::kCustomOp, op);
  if (PyRef fn = args.Get(1, "fn"); fn && fn->Is(K::kFunction)) {
    apply(fn, site);
    return result;
  }
  PyRef d = Decorator(apply);
  d->text = op;  // decorating yields the custom op object
  return d;
}

PyRef TorchLibraryModel::Call(const PyRef& callee, const PyArgs& args, const Site& site) {
  if (callee->Is(K::kDecorator)) {
    PyRef fn = args.Get(0, "fn");
    if (callee->apply) callee->apply(fn, site);
    if (!callee->text.empty()) return PyObject::Make(K::kCustomOp, callee->text);
    return fn ? fn : PyObject::None();
  }
  if (callee->Is(K::kBoundMethod) && callee->self)
    return CallMethod(callee->self, callee->text, args, site);
  if (callee->Is(K::kName)) return CallName(callee->text, args, site);
  return nullptr;
}

PyRef TorchLibraryModel::CallMethod(const PyRef& self, const std::string& method,
                                    const PyArgs& args, const Site& site) {
  if (self->Is(K::kOpPacket) && method == "overloads") {
    PyRef list = PyObject::List({});
    for (const OpSchema* s : facts_.schemas->Overloads(self->text)) {
      PyRef name = PyObject::Str(s->overload.empty() ? "default" : s->overload);
      name->file = self->file;
      name->line = self->line;
      name->maybe = self->maybe;
      list->items.push_back(name);
    }
    if (list->items.empty() && self->b == false)
      Warn(site, self->text + ".overloads(): no such operator in torch's registry");
    return list;
  }
  if (self->Is(K::kOpOverload) && method == "name") return PyObject::Str(self->text);
  if (self->Is(K::kLibrary)) {
    const std::string& ns = self->text;
    if (method == "impl") {
      PyRef op = args.Get(0, "op_name"), fn = args.Get(1, "fn"), key = args.Get(2, "dispatch_key");
      std::string target = OpTarget(op, ns, site, "Library.impl");
      if (target.empty()) return PyObject::None();
      std::string k = key && key->Is(K::kStr) ? key->text : "";
      if (key && !key->Is(K::kStr)) Warn(site, "Library.impl: dispatch key not known statically");
      if (k.empty()) k = self->lib_key;
      if (k.empty()) k = "CompositeImplicitAutograd";
      Emit(target, k, IsFallthrough(fn) ? Kind::kFallthrough : Kind::kKernel, "Library.impl", site,
           op, fn);
      return PyObject::None();
    }
    if (method == "define") {
      PyRef schema = args.Get(0, "schema");
      if (!schema || !schema->Is(K::kStr)) {
        Warn(site, "Library.define with a schema that is not a literal: not read");
        return PyObject::Unknown("define");
      }
      std::string name = SchemaName(schema->text);
      Definition(name.find("::") == std::string::npos ? ns + "::" + name : name, schema->text,
                 "Library.define", site);
      return PyObject::Str(name);
    }
    if (method == "fallback") {
      PyRef fn = args.Get(0, "fn"), key = args.Get(1, "dispatch_key");
      std::string k = key && key->Is(K::kStr) && !key->text.empty() ? key->text : self->lib_key;
      Emit("", k, IsFallthrough(fn) ? Kind::kFallthrough : Kind::kFallback, "Library.fallback",
           site, nullptr, fn);
      return PyObject::None();
    }
    if (method == "_register_fake") {
      std::string target = OpTarget(args.Get(0, "op_name"), ns, site, "Library._register_fake");
      if (!target.empty() && !custom_ops_.count(target))
        Emit(target, "Meta", Kind::kKernel, "register_fake", site, nullptr, args.Get(1, "fn"));
      return PyObject::None();
    }
    return nullptr;
  }
  if (self->Is(K::kCustomOp)) {
    const std::string op = self->text;
    if (method == "register_kernel") {
      PyRef types = args.Get(0, "device_types"), fn = args.Get(1, "fn");
      auto apply = [this, op, types](const PyRef& f, const Site& at) {
        CustomOpKernels(op, types, f, at);
      };
      if (fn) {
        apply(fn, site);
        return fn;
      }
      return Decorator(apply);
    }
    // register_fake / register_autograd / register_vmap...: kept by the
    // custom op in Python; the dispatcher entries already exist.
    if (PyRef fn = args.Get(0, "fn"); fn && fn->Is(K::kFunction)) return fn;
    return Decorator(nullptr);
  }
  return nullptr;
}

PyRef TorchLibraryModel::CallName(const std::string& name, const PyArgs& args, const Site& site) {
  if (name == "torch.utils.rename_privateuse1_backend") {
    PyRef n = args.Get(0, "backend_name");
    Registration r;
    r.kind = Kind::kHook;
    r.symbol = "BackendName";
    r.dispatch_key = "PrivateUse1";
    r.mechanism = "rename_privateuse1_backend";
    r.file = site.file;
    r.line = site.line;
    if (n && n->Is(K::kStr)) {
      r.kernel = n->text;
      AddPrivateUse1Name(n->text);
    }
    records_->push_back(std::move(r));
    return PyObject::None();
  }
  if (name == "torch._register_device_module" ||
      name == "torch.utils.generate_methods_for_privateuse1_backend") {
    Registration r;
    r.kind = Kind::kHook;
    r.symbol = name == "torch._register_device_module" ? "DeviceModule" : "GeneratedMethods";
    r.dispatch_key = "PrivateUse1";
    r.mechanism = name.substr(name.rfind('.') + 1);
    r.file = site.file;
    r.line = site.line;
    records_->push_back(std::move(r));
    return PyObject::None();
  }
  if (name == "torch._C._dispatch_has_kernel_for_dispatch_key") {
    // A filter on what torch already implements (`skip ops torch
    // decomposes`): known from the snapshot for the keys it records.
    PyRef op = args.Get(0, "name"), key = args.Get(1, "dispatch");
    if (op && key && key->Is(K::kStr) && (op->Is(K::kStr) || op->Is(K::kOpOverload)))
      if (auto has = facts_.schemas->HasKernel(op->text, key->text)) return PyObject::Bool(*has);
    return PyObject::Unknown(name);
  }
  std::string api = LibraryApi(name);
  if (api.empty()) return nullptr;
  if (api == "Library") {
    PyRef ns = args.Get(0, "ns"), kind = args.Get(1, "kind"), key = args.Get(2, "dispatch_key");
    if (!ns || !ns->Is(K::kStr)) {
      Warn(site, "Library with a namespace that is not a literal: its registrations are not read");
      return PyObject::Unknown("Library");
    }
    PyRef lib = PyObject::Make(K::kLibrary, ns->text);
    lib->lib_kind = kind && kind->Is(K::kStr) ? kind->text : "";
    lib->lib_key = key && key->Is(K::kStr) ? key->text : "";
    return lib;
  }
  if (api == "custom_op") return CustomOp(args, site);
  if (api == "define") {
    PyRef q = args.Get(0, "qualname"), schema = args.Get(1, "schema");
    if (q && q->Is(K::kStr))
      Definition(q->text, schema && schema->Is(K::kStr) ? schema->text : "", "torch.library.define",
                 site);
    return PyObject::None();
  }
  if (api == "register_kernel" || api == "impl") {
    PyRef first = args.Get(0, "op");
    if (api == "impl" && first && first->Is(K::kLibrary)) {
      // Legacy torch.library.impl(lib, name, dispatch_key): a decorator.
      PyRef lib = first, op = args.Get(1, "name"), key = args.Get(2, "dispatch_key");
      return Decorator([this, lib, op, key](const PyRef& fn, const Site& at) {
        PyArgs a;
        a.positional = {op, fn};
        if (key) a.positional.push_back(key);
        CallMethod(lib, "impl", a, at);
      });
    }
    bool custom = first && (first->Is(K::kCustomOp) ||
                            (first->Is(K::kStr) && custom_ops_.count(first->text)));
    PyRef types = args.Get(1, api == "impl" ? "types" : "device_types");
    PyRef fn = args.Get(2, "func");
    std::function<void(const PyRef&, const Site&)> apply;
    if (custom) {
      std::string op = first->text;
      apply = [this, op, types](const PyRef& f, const Site& at) {
        CustomOpKernels(op, types, f, at);
      };
    } else {
      std::string mechanism = api == "impl" ? "torch.library.impl" : "register_kernel";
      apply = [this, first, types, mechanism, api](const PyRef& f, const Site& at) {
        std::string target = OpTarget(first, "", at, api);
        if (target.empty()) return;
        for (const auto& key : DeviceKeys(types, at))
          Emit(target, key, IsFallthrough(f) ? Kind::kFallthrough : Kind::kKernel, mechanism, at,
               first, f);
      };
    }
    if (fn) {
      apply(fn, site);
      return PyObject::None();
    }
    return Decorator(apply);
  }
  if (api == "register_fake" || api == "impl_abstract" || api == "register_autograd") {
    PyRef op = args.Get(0, "op");
    bool custom = op && (op->Is(K::kCustomOp) || (op->Is(K::kStr) && custom_ops_.count(op->text)));
    std::string key = api == "register_autograd" ? "Autograd" : "Meta";
    std::string mechanism = api == "register_autograd" ? "register_autograd" : "register_fake";
    auto apply = [this, op, custom, key, mechanism, api](const PyRef& f, const Site& at) {
      if (custom) return;
      std::string target = OpTarget(op, "", at, api);
      if (!target.empty()) Emit(target, key, Kind::kKernel, mechanism, at, op, f);
    };
    PyRef fn = args.Get(1, api == "register_autograd" ? "backward" : "func");
    if (fn) {
      apply(fn, site);
      return fn;
    }
    return Decorator(apply);
  }
  return nullptr;
}

}  // namespace testmap::backend
