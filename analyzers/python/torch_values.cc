// What the evaluator reads from the torch snapshot: OpInfo/ModuleInfo
// attributes (`op.ref is not None`, `m.supports_gradgrad`), their classes
// (`isinstance(op, UnaryUfuncInfo)`), module constructors' parameters
// (`signature(m.module_cls).parameters`), constants and Enum members of
// torch's test modules (`TEST_WITH_ROCM`, `SpectralFuncType.OneD`),
// `__all__` of torch._refs modules, and the dtype
// helpers (`all_types_and(torch.half)`, `get_all_dtypes(include_bool=False)`).
#include <algorithm>

#include "analyzers/python/expression_evaluator.h"

namespace testmap::python {

Value Evaluator::FromPlain(const torch_snapshot::PlainValue& v, const std::string& text) {
  using K = torch_snapshot::PlainValue::Kind;
  switch (v.kind) {
    case K::kAbsent:
      return Value::Unknown(text);
    case K::kNone:
      return Value::None();
    case K::kBool:
      return Value::Bool(v.truthy);
    case K::kInt:
      return Value::Int(v.i);
    case K::kFloat:
      return Value::Float(v.f);
    case K::kStr:
      return Value::Str(v.s);
    case K::kDtype:
      return Value::Dtype(v.s);
    case K::kList: {
      std::vector<Value> items;
      for (const auto& item : v.items) items.push_back(FromPlain(item, text));
      return Value::List(std::move(items));
    }
    case K::kObject: {
      Value o = Value::Unknown(text);
      o.kind = Value::Kind::kObject;
      o.b = v.truthy;
      return o;
    }
    case K::kNamed: {
      Value o = Value::Unknown(v.s);
      o.kind = Value::Kind::kNamed;
      return o;
    }
    case K::kNumber:
      return Value::UnknownPrimitive(text);
    case K::kEnum: {
      const torch_snapshot::TorchSnapshot* s = snapshot_if_available();
      size_t dot = v.s.rfind('.');
      if (!s || dot == std::string::npos) return Value::Unknown(text);
      return EnumMember(*s, s->FindEnumClass(std::string_view(v.s).substr(0, dot)),
                        v.s.substr(dot + 1), text);
    }
  }
  return Value::Unknown(text);
}

Value Evaluator::EnumMember(const torch_snapshot::TorchSnapshot& s, int cls,
                            const std::string& member, const std::string& text) {
  if (cls < 0 || cls >= static_cast<int>(s.enum_classes.size())) return Value::Unknown(text);
  const torch_snapshot::EnumClass& c = s.enum_classes[cls];
  auto it = c.members.find(member);
  if (it == c.members.end()) return Value::Unknown(text);  // an AttributeError in Python
  Value v;
  v.kind = Value::Kind::kEnum;
  v.text = std::string(LastComponentView(c.qualified)) + "." + it->second;  // as str() prints it
  v.index = cls;
  return v;
}

Value Evaluator::AttributeOf(const Value& v, const std::string& attr) {
  using K = Value::Kind;
  // A class of the module, as import-time code holds it: `f"Sub{cls.__name__}"`.
  if (v.kind == K::kClass && v.index >= 0 && attr == "__name__") return Value::Str(v.text);
  bool needs_snapshot = v.kind == K::kOpInfo || v.kind == K::kModuleInfo ||
                        v.kind == K::kSignature || v.kind == K::kModule;
  const torch_snapshot::TorchSnapshot* s = needs_snapshot ? snapshot() : nullptr;
  if (!s) return Value::Unknown(attr);
  if (v.kind == K::kOpInfo) {
    const torch_snapshot::OpInfoEntry& op = s->ops[v.index];
    if (attr == "name") return Value::Str(op.name);
    if (attr == "variant_test_name") return Value::Str(op.variant_test_name);
    if (attr == "formatted_name") return Value::Str(op.formatted_name);
    if (attr == "aten_name") return op.aten_name.empty() ? Value::None() : Value::Str(op.aten_name);
    if (attr == "full_name")
      return Value::Str(op.variant_test_name.empty() ? op.name
                                                     : op.name + "." + op.variant_test_name);
    if (auto flag = s->OpFlag(op, attr)) return Value::Bool(*flag);
    if (const torch_snapshot::PlainValue* p = s->OpAttribute(op, attr)) return FromPlain(*p, attr);
  }
  if (v.kind == K::kModuleInfo) {
    const torch_snapshot::ModuleInfoEntry& m = s->modules[v.index];
    if (attr == "name") return Value::Str(m.name);
    if (attr == "formatted_name") return Value::Str(m.formatted_name);
    if (attr == "train_and_eval_differ") return Value::Bool(m.train_and_eval_differ);
    if (attr == "module_cls") {
      Value c = Value::Str(m.module_cls);
      c.kind = K::kClass;
      return c;
    }
    if (const torch_snapshot::PlainValue* p = s->ModuleAttribute(m, attr))
      return FromPlain(*p, attr);
  }
  if (v.kind == K::kSignature && attr == "parameters") {
    // The snapshot has the signatures of ModuleInfos' classes.
    for (const auto& m : s->modules)
      if (m.module_cls == v.text && m.ctor_params) {
        std::vector<Value> names;
        for (const auto& p : *m.ctor_params) names.push_back(Value::Str(p));
        return Value::List(std::move(names));
      }
  }
  if (v.kind == K::kModule && v.text.rfind("torch.ops.", 0) == 0) {
    bool exists;
    return TorchOpsMember(v.text, attr, &exists);
  }
  if (v.kind == K::kModule && attr == "__all__") {
    if (auto it = s->module_alls.find(v.text); it != s->module_alls.end()) {
      std::vector<Value> names;
      for (const auto& n : it->second) names.push_back(Value::Str(n));
      return Value::List(std::move(names));
    }
  }
  return Value::Unknown(attr);
}

Value Evaluator::TorchOpsMember(const std::string& path, const std::string& attr, bool* exists) {
  *exists = false;
  const torch_snapshot::TorchSnapshot* s = snapshot();
  Value unknown = Value::Unknown(path + "." + attr);
  if (!s || s->operators.empty()) return unknown;
  // torch.ops.NS.PACKET.OVERLOAD: how many components follow `torch.ops`.
  std::string rest = path.substr(std::string("torch.ops.").size());
  size_t dots = std::count(rest.begin(), rest.end(), '.');
  std::string ns = rest.substr(0, rest.find('.'));
  Value member;
  member.kind = Value::Kind::kModule;
  member.text = path + "." + attr;
  if (dots == 0) {  // a namespace: attr is a packet
    *exists = attr.find('.') == std::string::npos && !s->PacketOverloads(ns + "::" + attr).empty();
    return *exists ? member : unknown;
  }
  std::string packet = rest.substr(ns.size() + 1);
  if (dots == 1) {  // a packet: attr is an overload, `default` the unnamed one
    std::string name = ns + "::" + packet + (attr == "default" ? "" : "." + attr);
    *exists = s->FindOperator(name) != nullptr;
    return *exists ? member : unknown;
  }
  if (dots == 2 && attr == "tags") {  // an overload
    std::string overload = packet.substr(packet.find('.') + 1);
    packet = packet.substr(0, packet.find('.'));
    const auto* op =
        s->FindOperator(ns + "::" + packet + (overload == "default" ? "" : "." + overload));
    if (!op || s->operator_tags.empty()) return unknown;  // no tags recorded: unknown
    *exists = true;
    std::vector<Value> tags;
    for (size_t i = 0; i < s->operator_tags.size() && i < 64; ++i)
      if (op->tags & (uint64_t{1} << i)) {
        Value t;
        t.kind = Value::Kind::kEnum;
        t.text = "Tag." + s->operator_tags[i];
        tags.push_back(std::move(t));
      }
    return Value::List(std::move(tags));
  }
  return unknown;
}

bool Evaluator::IsInstance(const Value& object, const Value& classes, bool* known) {
  *known = false;
  if (classes.kind == Value::Kind::kList) {
    bool any = false;
    for (const Value& c : classes.items) {
      bool k;
      if (IsInstance(object, c, &k)) any = true;
      if (!k) return false;
    }
    *known = true;
    return any;
  }
  // An OpInfo's whole class hierarchy is in the snapshot, so a class not
  // in it is known not to match; classes compare by name.
  if (object.kind != Value::Kind::kOpInfo || classes.kind != Value::Kind::kClass) return false;
  const torch_snapshot::TorchSnapshot* s = snapshot();
  if (!s) return false;
  const auto& op = s->ops[object.index];
  if (op.cls < 0 || op.cls >= static_cast<int>(s->op_classes.size())) return false;
  const auto& mro = s->op_classes[op.cls];
  *known = true;
  return std::find(mro.begin(), mro.end(), LastComponentView(classes.text)) != mro.end();
}

bool Evaluator::TorchConstant(const std::string& q, Value* out) {
  if (q.rfind("torch.testing._internal.", 0) != 0) return false;
  size_t dot = q.rfind('.');
  const torch_snapshot::TorchSnapshot* s = snapshot();
  if (!s) return false;
  std::string owner = q.substr(0, dot), name = q.substr(dot + 1);
  // An Enum member through the name a module binds its class under.
  if (auto cls = s->enum_names.find(owner); cls != s->enum_names.end()) {
    *out = EnumMember(*s, cls->second, name, q);
    return true;
  }
  auto module = s->module_constants.find(owner);
  if (module == s->module_constants.end()) return false;
  auto it = module->second.find(name);
  if (it == module->second.end()) return false;
  *out = FromPlain(it->second, q);
  return true;
}

bool Evaluator::ExternalValue(const std::string& q, Value* out) {
  size_t dot = q.rfind('.');
  if (dot == std::string::npos) return false;
  // Without a snapshot such a name is what it was before the snapshot knew
  // these modules: not a miss of torch's metadata (that makes a file's
  // answer partial), so the check does not count one.
  const torch_snapshot::TorchSnapshot* s = snapshot_if_available();
  if (!s) return false;
  const torch_snapshot::PlainValue* v = s->ExternalName(q.substr(0, dot), q.substr(dot + 1));
  if (!v || v->kind == torch_snapshot::PlainValue::Kind::kAbsent) return false;
  *out = FromPlain(*v, q);
  return true;
}

bool Evaluator::CallTorchHelper(const std::string& q, const Args& args, TSNode n, Value* out) {
  if (!FromTorchTesting(q) && q.find("common_dtype") == std::string::npos) return false;
  std::string last = LastComponent(q);
  auto unknown = [&] {
    *out = Value::Unknown(Text(n));
    return true;
  };
  auto dtypes = [&](const std::vector<std::string>& names) {
    std::vector<Value> items;
    for (const auto& d : names) items.push_back(Value::Dtype(d));
    return Value::List(std::move(items));
  };
  // Only names the snapshot knows need it: anything else (a local helper
  // named like no dtype function) must not count as missing metadata.
  static const char* kPrefixes[] = {"all_",   "floating_", "integral_", "complex_", "double_",
                                    "empty_", "float8_",   "custom_",   "get_all_"};
  bool dtype_like = std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                                [&](const char* p) { return last.rfind(p, 0) == 0; });
  if (!dtype_like) return false;
  const torch_snapshot::TorchSnapshot* s = snapshot();
  if (!s) return false;
  // Helpers with bool (or device) parameters: looked up by argument values.
  if (auto it = s->dtype_helper_calls.find(last); it != s->dtype_helper_calls.end()) {
    const torch_snapshot::DtypeHelperCall& c = it->second;
    std::vector<std::string> key(c.params.size());
    std::vector<bool> set(c.params.size(), false);
    if (args.positional.size() > c.params.size()) return unknown();
    auto put = [&](size_t i, const Value& v) {
      if (set[i]) return false;
      set[i] = true;
      if (v.kind == Value::Kind::kBool)
        key[i] = v.b ? "True" : "False";
      else if (v.kind == Value::Kind::kStr)
        key[i] = v.text;
      else if (v.kind == Value::Kind::kDevice)
        key[i] = v.text.substr(0, v.text.find(':'));
      else
        return false;
      return true;
    };
    for (size_t i = 0; i < args.positional.size(); ++i)
      if (!put(i, args.positional[i])) return unknown();
    for (const auto& [name, v] : args.keyword) {
      auto p = std::find(c.params.begin(), c.params.end(), name);
      if (p == c.params.end() || !put(p - c.params.begin(), v)) return unknown();
    }
    std::string joined;
    for (size_t i = 0; i < key.size(); ++i) {
      if (!set[i]) {
        if (!c.defaults[i]) return unknown();
        key[i] = *c.defaults[i] ? "True" : "False";
      }
      joined += (i ? "," : "") + key[i];
    }
    auto r = c.results.find(joined);
    if (r == c.results.end()) return unknown();
    *out = dtypes(r->second);
    return true;
  }
  // all_types_and(torch.half) is all_types() + (half,); None is dropped
  // (_validate_dtypes).
  if (auto it = s->dtype_helpers.find(last); it != s->dtype_helpers.end()) {
    if (!args.keyword.empty()) return unknown();
    Value list = dtypes(it->second);
    for (const auto& a : args.positional) {
      if (a.kind == Value::Kind::kNone) continue;
      if (a.kind != Value::Kind::kDtype) return unknown();
      list.items.push_back(a);
    }
    // A zero-argument helper called with arguments is a TypeError: unknown.
    bool variadic = last.size() > 4 && last.compare(last.size() - 4, 4, "_and") == 0;
    if (!args.positional.empty() && !variadic && last != "custom_types") return unknown();
    *out = std::move(list);
    return true;
  }
  return false;
}

}  // namespace testmap::python
