#include "analyzers/python/parametrization.h"

#include <algorithm>
#include <map>
#include <set>

namespace testmap::python {
namespace {

bool IsTorchName(const std::string& q, const char* name) {
  return LastComponent(q) == name && q.rfind("pytest", 0) != 0;
}

using Instances = std::vector<Instance>;

// compose_parametrize_fns: names join "<new>_<old>"; a parameter handled
// twice is an error at import.
Instances Compose(const Instances& old_list, const Instances& new_list, Expansion& ex, int line) {
  Instances out;
  for (const auto& o : old_list)
    for (const auto& n : new_list) {
      for (const auto& [k, v] : n.kwargs)
        for (const auto& [k2, v2] : o.kwargs)
          if (k == k2) {
            ex.problems.push_back(
                {line, "parameter `" + k + "` is parametrized twice (RuntimeError at import)"});
            return {};
          }
      Instance c;
      c.suffix = n.suffix + (!n.suffix.empty() && !o.suffix.empty() ? "_" : "") + o.suffix;
      c.kwargs = o.kwargs;
      c.kwargs.insert(c.kwargs.end(), n.kwargs.begin(), n.kwargs.end());
      c.decorators = o.decorators;
      c.decorators.insert(c.decorators.end(), n.decorators.begin(), n.decorators.end());
      out.push_back(std::move(c));
    }
  return out;
}

// _update_param_kwargs: a sequence becomes the plural name; None is dropped.
void AddParam(Instance& inst, const std::string& name, const Value& v) {
  if (v.kind == Value::Kind::kNone) return;
  inst.kwargs.push_back({v.kind == Value::Kind::kList ? name + "s" : name, v});
}

std::vector<std::string> DtypeNames(const Value& v, bool* ok) {
  std::vector<std::string> out;
  *ok = v.kind == Value::Kind::kList;
  if (!*ok) return out;
  for (const auto& d : v.items) {
    if (d.kind != Value::Kind::kDtype)
      *ok = false;
    else
      out.push_back(d.text);
  }
  return out;
}

class Expander {
 public:
  Expander(Evaluator& ev, const FunctionDef& fn, const DeviceContext& ctx, const ClassDef* cls,
           const Evaluator::Locals* closure)
      : ev_(ev), fn_(fn), ctx_(ctx), cls_(cls), closure_(closure) {}

  Expansion Run() {
    // Decorators apply bottom-up: the lowest parametrizer is the "old" one.
    Instances acc;
    bool have_parametrizer = false;
    std::map<std::string, std::pair<Value, int>> dtype_tables;  // device key -> (dtypes args, line)
    for (auto it = fn_.decorators.rbegin(); it != fn_.decorators.rend(); ++it) {
      TSNode d = *it;
      if (!Is(d, "call")) continue;
      std::string q = ev_.CalleeName(d);
      std::string last = LastComponent(q);
      int line = ParsedModule::FirstLine(d);
      Instances produced;
      uint64_t misses = ev_.snapshot_misses();
      // Class attributes are visible to a decorator only if it reads them
      // (evaluating with locals gives up the per-file memo).
      scope_ = closure_;
      if (!closure_ && cls_ &&
          ev_.Mentions(d, [&](const std::string& name) { return cls_->attributes.count(name); }))
        scope_ = ev_.ClassScope(*cls_);
      if (IsTorchName(q, "parametrize")) {
        produced = Parametrize(d);
      } else if (IsTorchName(q, "ops")) {
        produced = Ops(d);
      } else if (IsTorchName(q, "modules")) {
        produced = Modules(d);
      } else if (last == "dtypes" || last.rfind("dtypesIf", 0) == 0) {
        if (q.rfind("pytest", 0) == 0) continue;
        Evaluator::Args args = ev_.CallArgs(d, scope_);
        std::string key = "all";
        if (last != "dtypes") {
          key = last.substr(8);
          std::transform(key.begin(), key.end(), key.begin(), ::tolower);
          if (key == "privateuse1") key = ctx_.dtype_key;
        }
        if (auto dt = args.keyword.find("device_type"); dt != args.keyword.end()) {
          if (dt->second.kind != Value::Kind::kStr) {
            Problem(line, "cannot evaluate device_type of " + ev_.Text(d));
            continue;
          }
          key = dt->second.text;
        }
        if (dtype_tables.count(key))
          Problem(line, "dtypes redefinition for " + key + " (AssertionError at import)");
        dtype_tables[key] = {Value::List(args.positional), line};
        if (ev_.snapshot_misses() != misses) return MissingMetadata(d);
        continue;
      } else {
        continue;
      }
      if (ev_.snapshot_misses() != misses) return MissingMetadata(d);
      if (produced.empty() && !ex_.problems.empty()) return Finish({});
      acc = have_parametrizer ? Compose(acc, produced, ex_, line) : std::move(produced);
      have_parametrizer = true;
    }
    if (!have_parametrizer) acc = {Instance{}};

    // @dtypes: parametrize over the device's dtype list, composed as the
    // "old" function so that its (empty) suffix goes last.
    if (!dtype_tables.empty() && !ctx_.device_type.empty()) {
      auto all = dtype_tables.find("all");
      if (all == dtype_tables.end()) {
        Problem(dtype_tables.begin()->second.second,
                "@dtypes is mandatory when using @dtypesIf* (AssertionError at import)");
        return Finish({});
      }
      auto dev = dtype_tables.find(ctx_.dtype_key);
      const auto& [list, line] = dev != dtype_tables.end() ? dev->second : all->second;
      Instances dtype_instances;
      for (const auto& d : list.items) {
        if (d.kind != Value::Kind::kDtype && d.kind != Value::Kind::kList) {
          Problem(line, "cannot evaluate dtype `" + d.text + "`");
          continue;
        }
        bool ok;
        if (d.kind == Value::Kind::kList)
          DtypeNames(d, &ok);
        else
          ok = true;
        if (!ok) {
          Problem(line, "cannot evaluate dtypes `" + d.text + "`");
          continue;
        }
        Instance inst;
        AddParam(inst, "dtype", d);
        dtype_instances.push_back(std::move(inst));
      }
      acc = Compose(dtype_instances, acc, ex_, line);
    }
    return Finish(std::move(acc));
  }

 private:
  // A decorator whose values needed torch's metadata and found none: its
  // tests would come out with made-up names (`dtype0` for torch.float32),
  // so there are none, and a problem says why.
  Expansion MissingMetadata(TSNode d) {
    std::string text = ev_.Text(d);
    if (text.size() > 120) text = text.substr(0, 117) + "...";
    Problem(ParsedModule::FirstLine(d),
            "these tests need torch's metadata, which is unavailable: @" + text);
    return Finish({});
  }

  Expansion Finish(Instances instances) {
    ex_.instances = std::move(instances);
    return std::move(ex_);
  }

  void Problem(int line, std::string message) {
    ex_.problems.push_back({line, std::move(message)});
  }

  Instances Parametrize(TSNode d) {
    int line = ParsedModule::FirstLine(d);
    Evaluator::Args args = ev_.CallArgs(d, scope_);
    auto arg = [&](size_t pos, const char* kw) -> const Value* {
      if (args.positional.size() > pos) return &args.positional[pos];
      auto it = args.keyword.find(kw);
      return it == args.keyword.end() ? nullptr : &it->second;
    };
    const Value* names_v = arg(0, "arg_str");
    const Value* values_v = arg(1, "arg_values");
    const Value* name_fn = arg(2, "name_fn");
    if (!names_v || names_v->kind != Value::Kind::kStr) {
      Problem(line, "cannot evaluate parameter names of " + ev_.Text(d));
      return {};
    }
    std::vector<std::string> names;
    {
      std::string cur;
      std::string s = names_v->text + ",";
      for (char c : s) {
        if (c != ',') {
          cur += c;
          continue;
        }
        size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
        if (!cur.empty()) names.push_back(b == std::string::npos ? "" : cur.substr(b, e - b + 1));
        cur.clear();
      }
    }
    if (names.empty()) return {Instance{}};
    if (!values_v || values_v->kind != Value::Kind::kList) {
      Problem(line, "cannot evaluate parameter values `" + (values_v ? values_v->text : "") + "`");
      return {};
    }
    if (values_v->items.empty()) {
      Problem(line, "empty arg_values passed to @parametrize (ValueError at import)");
      return {};
    }
    Instances out;
    for (size_t idx = 0; idx < values_v->items.size(); ++idx) {
      Value item = values_v->items[idx];
      Instance inst;
      std::string explicit_name;
      if (item.kind == Value::Kind::kSubtest) {
        explicit_name = item.text;
        inst.decorators = item.decorators;
        Value inner = item.items[0];
        item = std::move(inner);
      }
      std::vector<Value> values;
      if (names.size() > 1) {
        if (item.kind != Value::Kind::kList) {
          Problem(line, "cannot evaluate parameter tuple `" + item.text + "`");
          return {};
        }
        values = item.items;
        if (values.size() != names.size()) {
          Problem(line, "expected " + std::to_string(names.size()) +
                            " values per case (RuntimeError at import)");
          return {};
        }
      } else {
        values = {item};
      }
      for (size_t k = 0; k < names.size(); ++k) inst.kwargs.push_back({names[k], values[k]});
      if (!explicit_name.empty()) {
        inst.suffix = explicit_name;
      } else if (name_fn && name_fn->kind != Value::Kind::kNone) {
        Value name = ev_.Call(*name_fn, values);
        if (name.kind != Value::Kind::kStr) {
          Problem(line, "cannot evaluate name_fn " + name_fn->text);
          return {};
        }
        inst.suffix = name.text;
      } else {
        for (size_t k = 0; k < names.size(); ++k) {
          if (values[k].kind == Value::Kind::kUnknown &&
              (values[k].primitive || IsLiteralLooking(values[k].text))) {
            Problem(line, "cannot evaluate parameter value `" + values[k].text + "`");
            return {};
          }
          inst.suffix += (k ? "_" : "") + TorchParamRepr(names[k], values[k], idx);
        }
      }
      out.push_back(std::move(inst));
    }
    return out;
  }

  // An unknown value whose text could still be an int/float/str (a name of
  // a constant we could not resolve), so its spelling cannot be guessed.
  static bool IsLiteralLooking(const std::string& text) {
    return !text.empty() &&
           (std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '"' ||
            text[0] == '\'' || text[0] == '-' || std::isupper(static_cast<unsigned char>(text[0])));
  }

  // `allowed_dtypes=` of @ops/@modules: None means no restriction.
  bool AllowedDtypes(const Value& v, int line, std::set<std::string>* allowed, bool* have) {
    *have = v.kind != Value::Kind::kNone;
    if (!*have) return true;
    bool ok;
    auto names = DtypeNames(v, &ok);
    if (!ok) Problem(line, "cannot evaluate allowed_dtypes `" + v.text + "`");
    allowed->insert(names.begin(), names.end());
    return ok;
  }

  // What @ops and @modules both need: a device context and the snapshot.
  const torch_snapshot::TorchSnapshot* InfoDecorator(TSNode d, const char* name, int line,
                                                     Evaluator::Args* args) {
    if (ctx_.device_type.empty()) {
      Problem(line, std::string("@") + name +
                        " needs instantiate_device_type_tests (RuntimeError at import)");
      return nullptr;
    }
    *args = ev_.CallArgs(d, scope_);
    const torch_snapshot::TorchSnapshot* snap = ev_.snapshot();
    if (!snap)
      Problem(line, std::string("@") + name +
                        " needs torch's metadata, which is unavailable (see --torch-python)");
    return snap;
  }

  Instances Ops(TSNode d) {
    int line = ParsedModule::FirstLine(d);
    Evaluator::Args args;
    const torch_snapshot::TorchSnapshot* snap = InfoDecorator(d, "ops", line, &args);
    if (!snap) return {};
    Value list = args.positional.empty() ? Value::Unknown("") : args.positional[0];
    if (auto it = args.keyword.find("op_list"); it != args.keyword.end()) list = it->second;
    if (list.kind != Value::Kind::kList) {
      Problem(line, "cannot evaluate op list `" + list.text + "`");
      return {};
    }
    Value policy = Value::Unknown("OpDTypes.supported");
    policy.kind = Value::Kind::kEnum;
    if (auto it = args.keyword.find("dtypes"); it != args.keyword.end()) policy = it->second;
    auto found = args.keyword.find("allowed_dtypes");
    std::set<std::string> allowed;
    bool have_allowed = false;
    if (!AllowedDtypes(found == args.keyword.end() ? Value::None() : found->second, line, &allowed,
                       &have_allowed))
      return {};
    Instances out;
    for (const auto& opv : list.items) {
      if (opv.kind != Value::Kind::kOpInfo) {
        Problem(line, "cannot evaluate OpInfo `" + opv.text + "`");
        return {};
      }
      const torch_snapshot::OpInfoEntry& op = snap->ops[opv.index];
      std::set<std::string> dtypes;
      bool none_dtype = false;
      const auto& supported = snap->OpDtypes(op, ctx_.device_type, false);
      const auto& backward = snap->OpDtypes(op, ctx_.device_type, true);
      if (policy.kind == Value::Kind::kList) {
        bool ok;
        auto names = DtypeNames(policy, &ok);
        if (!ok) {
          Problem(line, "cannot evaluate dtypes `" + policy.text + "`");
          return {};
        }
        dtypes.insert(names.begin(), names.end());
      } else if (policy.kind != Value::Kind::kEnum) {
        Problem(line, "cannot evaluate dtypes policy `" + policy.text + "`");
        return {};
      } else if (policy.text == "OpDTypes.supported") {
        dtypes.insert(supported.begin(), supported.end());
      } else if (policy.text == "OpDTypes.supported_backward") {
        dtypes.insert(backward.begin(), backward.end());
      } else if (policy.text == "OpDTypes.unsupported" ||
                 policy.text == "OpDTypes.unsupported_backward") {
        const auto& sup = policy.text == "OpDTypes.unsupported" ? supported : backward;
        for (const auto& d : snap->all_dtypes)
          if (std::find(sup.begin(), sup.end(), d) == sup.end()) dtypes.insert(d);
      } else if (policy.text == "OpDTypes.any_one") {
        std::set<std::string> sup(supported.begin(), supported.end()), both;
        for (const auto& d : backward)
          if (sup.count(d)) both.insert(d);
        const auto& pool = both.empty() ? sup : both;
        for (const auto& d : snap->any_dtype_order)
          if (pool.count(d)) {
            dtypes.insert(d);
            break;
          }
      } else if (policy.text == "OpDTypes.any_common_cpu_cuda_one") {
        std::vector<std::string> common = snap->Decode(op.dtypes_default & op.dtypes_if_cuda);
        for (const auto& d : snap->any_dtype_order)
          if (std::count(common.begin(), common.end(), d)) {
            dtypes.insert(d);
            break;
          }
      } else if (policy.text == "OpDTypes.none") {
        none_dtype = true;
      } else {
        Problem(line, "unknown dtypes policy " + policy.text);
        return {};
      }
      // allowed_dtypes intersects even the {None} of OpDTypes.none.
      if (none_dtype && have_allowed) continue;
      std::vector<Value> chosen;
      if (none_dtype) chosen.push_back(Value::None());
      for (const auto& d : dtypes)
        if (!have_allowed || allowed.count(d)) chosen.push_back(Value::Dtype(d));
      for (const auto& d : chosen) {
        Instance inst;
        inst.suffix = op.formatted_name;
        inst.kwargs.push_back({"op", opv});
        AddParam(inst, "dtype", d);
        out.push_back(std::move(inst));
      }
    }
    return out;
  }

  Instances Modules(TSNode d) {
    int line = ParsedModule::FirstLine(d);
    Evaluator::Args args;
    const torch_snapshot::TorchSnapshot* snap = InfoDecorator(d, "modules", line, &args);
    if (!snap) return {};
    Value list = args.positional.empty() ? Value::Unknown("") : args.positional[0];
    if (list.kind != Value::Kind::kList) {
      Problem(line, "cannot evaluate module list `" + list.text + "`");
      return {};
    }
    Value allowed_v = args.positional.size() > 1 ? args.positional[1] : Value::None();
    if (auto it = args.keyword.find("allowed_dtypes"); it != args.keyword.end())
      allowed_v = it->second;
    std::set<std::string> allowed;
    bool have_allowed = false;
    if (!AllowedDtypes(allowed_v, line, &allowed, &have_allowed)) return {};
    std::string mode = "TrainEvalMode.train_and_eval";
    if (auto it = args.keyword.find("train_eval_mode"); it != args.keyword.end()) {
      if (it->second.kind != Value::Kind::kEnum) {
        Problem(line, "cannot evaluate train_eval_mode `" + it->second.text + "`");
        return {};
      }
      mode = it->second.text;
    }
    Instances out;
    for (const auto& mv : list.items) {
      if (mv.kind != Value::Kind::kModuleInfo) {
        Problem(line, "cannot evaluate ModuleInfo `" + mv.text + "`");
        return {};
      }
      const torch_snapshot::ModuleInfoEntry& m = snap->modules[mv.index];
      std::vector<bool> flags;
      if (mode != "TrainEvalMode.eval_only") flags.push_back(true);
      if (mode != "TrainEvalMode.train_only") flags.push_back(false);
      if (!m.train_and_eval_differ) flags.resize(std::min<size_t>(flags.size(), 1));
      for (bool training : flags)
        for (const auto& d : snap->ModuleDtypes(m, ctx_.device_type)) {
          if (have_allowed && !allowed.count(d)) continue;
          Instance inst;
          inst.suffix = m.formatted_name;
          if (flags.size() > 1) inst.suffix += training ? "_train_mode" : "_eval_mode";
          inst.kwargs.push_back({"module_info", mv});
          AddParam(inst, "dtype", Value::Dtype(d));
          AddParam(inst, "training", Value::Bool(training));
          out.push_back(std::move(inst));
        }
    }
    return out;
  }

  Evaluator& ev_;
  const FunctionDef& fn_;
  const DeviceContext& ctx_;
  const ClassDef* cls_;
  const Evaluator::Locals* closure_;
  const Evaluator::Locals* scope_ = nullptr;
  Expansion ex_;
};

}  // namespace

Expansion ExpandTest(Evaluator& ev, const FunctionDef& fn, const DeviceContext& ctx,
                     const ClassDef* cls, const Evaluator::Locals* closure) {
  return Expander(ev, fn, ctx, cls, closure).Run();
}

std::string DtypeSuffix(const Instance& inst) {
  // Placement rule: the `dtypes` kwarg wins over `dtype` (instantiate_test).
  const Value* v = nullptr;
  for (const auto& [k, val] : inst.kwargs)
    if (k == "dtypes") v = &val;
  if (!v)
    for (const auto& [k, val] : inst.kwargs)
      if (k == "dtype") v = &val;
  if (!v) return "";
  if (v->kind == Value::Kind::kDtype) return "_" + v->text;
  if (v->kind != Value::Kind::kList || v->items.empty()) return "";
  std::string s;
  for (const auto& d : v->items) s += "_" + d.text;
  return s;
}

std::string TorchParamRepr(const std::string& arg, const Value& v, size_t idx) {
  switch (v.kind) {
    case Value::Kind::kDtype:
      return v.text;
    case Value::Kind::kDevice:
      return v.text;
    case Value::Kind::kOpInfo:
    case Value::Kind::kModuleInfo:
      return v.text.empty() ? arg + std::to_string(idx) : v.text;
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
    case Value::Kind::kStr:
    case Value::Kind::kBool: {
      std::string s;
      PythonStr(v, &s);
      std::replace(s.begin(), s.end(), '.', '_');
      return arg + "_" + s;
    }
    default:
      return arg + std::to_string(idx);
  }
}

}  // namespace testmap::python
