#include "analyzers/python/collector.h"

#include <algorithm>
#include <cctype>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include "analyzers/python/class_factories.h"
#include "analyzers/python/content_identity.h"
#include "analyzers/python/ordered_names.h"
#include "analyzers/python/parallel_ranges.h"
#include "analyzers/python/parametrization.h"
#include "analyzers/python/pytest_ids.h"
#include "analyzers/python/setattr_tests.h"

namespace testmap::python {

std::string DeviceSpec::class_suffix() const {
  std::string s = type;
  std::transform(s.begin(), s.end(), s.begin(), ::toupper);
  return s;
}

std::vector<DeviceSpec> ParseDeviceSpecs(const std::vector<std::string>& devices) {
  std::vector<DeviceSpec> out;
  for (const auto& d : devices) {
    size_t colon = d.find(':');
    if (colon != std::string::npos)
      out.push_back({d.substr(0, colon), d.substr(colon + 1)});
    else
      out.push_back({d, d});
  }
  return out;
}

namespace {

bool StartsWith(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

// An attribute of a class as the running module would have it.
struct Member {
  enum class Kind { kFunction, kAttribute, kClass, kGenerated };
  Kind kind = Kind::kAttribute;
  const FunctionDef* fn = nullptr;  // defining function (generated: the generic one)
  const ClassDef* defined_in = nullptr;
  const Evaluator::Locals* closure = nullptr;  // added by setattr: names its def closes over
  bool callable = false;
  // The function's __name__ where it is not its def's: make_test_cls_with_patches
  // renames the tests it copies, and instantiate_parametrized_tests names
  // tests by __name__.
  std::string renamed;
  const std::string& name() const { return renamed.empty() ? fn->name : renamed; }
  // Generated tests only:
  Instance instance;
  std::string generic_class, generic_method, record_kind, device;
  size_t order_index = 0;  // OrderedNames'
};

struct RtClass {
  std::string name;
  const ClassDef* def = nullptr;  // null for classes made by instantiate_device_type_tests
  std::vector<int> bases;         // runtime classes
  std::vector<std::string> external_bases;
  OrderedNames<Member> members;  // its own, in definition order
  std::string generic_class;     // for device classes: the template's name
  std::string device;            // for device classes: method-name device
  std::vector<TSNode> decorators;
};

struct Binding {
  enum class Kind { kClass, kFunction, kOther };
  Kind kind = Kind::kOther;
  int index = -1;
  size_t order_index = 0;  // OrderedNames'
};

// Names that make a base class a unittest.TestCase without our seeing it.
bool LooksLikeTestCase(const std::string& q) {
  std::string last = LastComponent(q);
  static const std::set<std::string> known = {"DeviceTypeTestBase", "CPUTestBase", "CUDATestBase",
                                              "PrivateUse1TestBase", "TestBase"};
  return (last.size() >= 8 && last.compare(last.size() - 8, 8, "TestCase") == 0) ||
         known.count(last);
}

bool IsSkipDecorator(const std::string& q) {
  std::string last = LastComponent(q);
  return StartsWith(last, "skip") || StartsWith(last, "only") ||
         StartsWith(last, "expectedFailure") || last == "xfail" || StartsWith(last, "requires") ||
         StartsWith(last, "unMarkDynamo") || q == "pytest.mark.skip" || q == "pytest.mark.skipif";
}

class Collector : public ImportTimeHost {
 public:
  Collector(const ParsedModule& m, const ModuleModel& model, Evaluator& ev, const CollectOptions& o,
            FileScan& scan)
      : m_(m),
        model_(model),
        ev_(ev),
        options_(o),
        scan_(scan),
        setattr_(m, model, ev),
        identities_(m, model) {}

  void Run() {
    ev_.SetFunctionRunner([this](const Value& fn, const std::vector<Value>& args) {
      return setattr_.CallDef(fn, args);
    });
    if (!ImportsResolve()) return;
    for (const auto& [line, note] : model_.notes) Warn(line, note);
    for (const Statement& s : model_.statements) Execute(s);
    Collect();
    if (ev_.snapshot_missing())
      Warn(0, "some tests need torch's OpInfo/ModuleInfo/dtype metadata, which is unavailable");
  }

 private:
  // `from torch.testing._internal.X import name` where X has no `name`:
  // pytest's import of the file fails and it collects nothing from it.
  // Checked only when the snapshot is there (it lists what X has).
  bool ImportsResolve() {
    const torch_snapshot::TorchSnapshot* s = nullptr;
    for (const FromImport& imp : model_.from_imports) {
      if (imp.module.rfind("torch.testing._internal", 0) != 0) continue;
      // Loaded for the first such import only: a file without one never
      // waits for the snapshot.
      if (!s && !(s = ev_.snapshot_if_available())) return true;
      if (s->ModuleHasName(imp.module, imp.name) != false) continue;
      scan_.skipped = true;
      scan_.diagnostics.push_back(
          {Diagnostic::Severity::kError, imp.line,
           "cannot import name '" + imp.name + "' from '" + imp.module +
               "' (in the torch whose snapshot is used): pytest collects nothing from this "
               "file"});
      return false;
    }
    return true;
  }

  // A warning after which tests pytest would collect may be missing or
  // unsure: the scan is then a partial answer.
  void Warn(int line, std::string msg) {
    scan_.incomplete = true;
    Note(line, std::move(msg));
  }
  // A warning that leaves the answer complete (pytest behaves the same).
  void Note(int line, std::string msg) {
    scan_.diagnostics.push_back({Diagnostic::Severity::kWarning, line, std::move(msg)});
  }

  // ---- module execution ----------------------------------------------------

  void Bind(const std::string& name, Binding b) { ns_.Set(name, b); }
  void Unbind(const std::string& name) { ns_.Erase(name); }
  // ---- what import-time code does (ImportTimeHost) -----------------------

  int ClassBound(const std::string& name) const override {
    auto it = ns_.items.find(name);
    return it != ns_.items.end() && it->second.kind == Binding::Kind::kClass ? it->second.index
                                                                             : -1;
  }
  std::string ClassName(int cls) const override { return classes_[cls].name; }
  void BindName(const std::string& name, int cls) override {
    Bind(name, cls >= 0 ? Binding{Binding::Kind::kClass, cls} : Binding{});
  }
  void AddTest(const AddedTest& t) override {
    Member m;
    m.kind = Member::Kind::kFunction;
    m.fn = t.fn;
    m.closure = t.scope;
    m.callable = true;
    classes_[t.cls].members.Set(t.name, std::move(m));
  }
  int MakeClass(const TypeCall& call) override {
    RtClass c;
    c.name = call.name;
    for (const ClassRef& b : call.bases)
      if (b.index >= 0)
        c.bases.push_back(b.index);
      else
        c.external_bases.push_back(b.qualified);
    classes_.push_back(std::move(c));
    return static_cast<int>(classes_.size()) - 1;
  }
  // make_test_cls_with_patches: a class with `src`'s bases, its dir()'s
  // tests renamed (class_factories.h). A copy of a device class stays one
  // (its tests keep their device).
  int MakePatchedClass(const PatchedClassCall& call) override {
    const RtClass& src = classes_[call.cls];
    RtClass c;
    c.name = call.prefix + src.name;
    c.bases = src.bases;
    c.external_bases = src.external_bases;
    c.generic_class = src.generic_class;
    c.device = src.device;
    c.decorators = src.decorators;
    std::vector<SourceAttribute> dir;
    for (const std::string& name : Dir(call.cls))
      dir.push_back({name, Lookup(call.cls, name)->callable});
    auto bases_have = [&](const std::string& name) {
      for (int b : c.bases)
        if (Lookup(b, name)) return true;
      return false;
    };
    for (const CopiedAttribute& a : PatchedAttributes(dir, call.suffix, bases_have)) {
      Member m = *Lookup(call.cls, a.from);
      if (a.to != a.from && m.fn) m.renamed = a.to;
      c.members.Set(a.to, std::move(m));
    }
    classes_.push_back(std::move(c));
    return static_cast<int>(classes_.size()) - 1;
  }

  void Execute(const Statement& s) {
    switch (s.kind) {
      case Statement::Kind::kImport:
        Bind(s.name, {});
        break;
      case Statement::Kind::kFunction:
        Bind(s.name, {Binding::Kind::kFunction, s.index});
        break;
      case Statement::Kind::kAssign: {
        if (setattr_.Wants(s)) {
          RunImportCode(s);
          break;
        }
        int alias = Is(s.node, "identifier") ? ClassBound(std::string(m_.Text(s.node))) : -1;
        Bind(s.name, alias >= 0 ? Binding{Binding::Kind::kClass, alias} : Binding{});
        break;
      }
      case Statement::Kind::kDelete:
        Unbind(s.name);
        break;
      case Statement::Kind::kClass:
        DefineClass(model_.classes[s.index]);
        break;
      case Statement::Kind::kCall:
        if (setattr_.Wants(s))
          RunImportCode(s);
        else
          Call(s.node);
        break;
      case Statement::Kind::kBlock:
        RunImportCode(s);
        break;
    }
  }

  // Import-time code that adds tests with setattr, makes classes or binds
  // them through globals(): what it does comes back through the
  // ImportTimeHost calls above as it runs.
  void RunImportCode(const Statement& s) {
    std::string why;
    int line = 0;
    if (!setattr_.Run(s, *this, &why, &line)) {
      std::string code(
          m_.Text(s.kind == Statement::Kind::kAssign ? ts_node_parent(s.node) : s.node));
      Warn(line, "tests made at import time by `" + Collapse(code).substr(0, 80) +
                     "` may be missing: " + why);
    }
  }

  void DefineClass(const ClassDef& def) {
    RtClass c;
    c.name = def.name;
    c.def = &def;
    c.decorators = def.decorators;
    for (TSNode b : def.bases) {
      int local = Is(b, "identifier") ? ClassBound(std::string(m_.Text(b))) : -1;
      if (local >= 0)
        c.bases.push_back(local);
      else
        c.external_bases.push_back(ev_.QualifiedName(b).empty() ? std::string(m_.Text(b))
                                                                : ev_.QualifiedName(b));
    }
    for (const ClassMember& cm : def.members) {
      Member m;
      m.defined_in = &def;
      if (cm.kind == ClassMember::Kind::kFunction) {
        m.kind = Member::Kind::kFunction;
        m.fn = &def.functions[cm.function];
        m.callable = true;
      } else if (cm.kind == ClassMember::Kind::kClass) {
        m.kind = Member::Kind::kClass;
        m.callable = true;
      } else {
        m.kind = Member::Kind::kAttribute;
        // `test_x = some_function` or a lambda is callable; data is not.
        m.callable =
            Is(cm.value, "lambda") || (Is(cm.value, "identifier") &&
                                       model_.function_index.count(std::string(m_.Text(cm.value))));
        if (m.callable && Is(cm.value, "identifier"))
          m.fn = &model_.functions[model_.function_index.at(std::string(m_.Text(cm.value)))];
      }
      c.members.Set(cm.name, std::move(m));
    }
    classes_.push_back(std::move(c));
    int idx = static_cast<int>(classes_.size()) - 1;
    // Class decorators apply bottom-up after the class body.
    for (auto it = def.decorators.rbegin(); it != def.decorators.rend(); ++it)
      if (LastComponent(ev_.QualifiedName(*it)) == "instantiate_parametrized_tests")
        InstantiateParametrized(idx, ParsedModule::FirstLine(*it));
    Bind(def.name, {Binding::Kind::kClass, idx});
  }

  void Call(TSNode call) {
    std::string fn = LastComponent(ev_.QualifiedName(Field(call, "function")));
    if (fn != "instantiate_device_type_tests" && fn != "instantiate_parametrized_tests") return;
    int line = ParsedModule::FirstLine(call);
    TSNode args = Field(call, "arguments");
    TSNode first = ts_node_named_child_count(args) ? ts_node_named_child(args, 0) : TSNode{};
    int cls = Is(first, "identifier") ? ClassBound(std::string(m_.Text(first))) : -1;
    if (cls < 0) {
      Warn(line, "cannot follow " + std::string(m_.Text(call)) +
                     ": its class is not defined in this file");
      return;
    }
    if (fn == "instantiate_parametrized_tests") {
      InstantiateParametrized(cls, line);
      return;
    }
    // It deletes the class's __name__ from the module, whatever name the
    // class was passed by.
    const std::string& name = classes_[cls].name;
    if (!ns_.items.count(name)) {
      Warn(line, "cannot follow " + std::string(m_.Text(call)) + ": it deletes `" + name +
                     "`, which the module does not bind (a KeyError at import)");
      return;
    }
    InstantiateDeviceType(cls, name, call, line);
  }

  // ---- class model helpers ------------------------------------------------

  // C3 linearization over local classes (external bases carry no members).
  // C3 linearization. Remembered per class: a class's bases are fixed when
  // it is defined, and every Lookup walks the MRO.
  const std::vector<int>& Mro(int c) const {
    if (mro_.size() <= static_cast<size_t>(c)) mro_.resize(c + 1);
    std::optional<std::vector<int>>& memo = mro_[c];
    if (!memo) memo = ComputeMro(c);
    return *memo;
  }

  std::vector<int> ComputeMro(int c) const {
    std::vector<std::vector<int>> seqs;
    for (int b : classes_[c].bases) seqs.push_back(Mro(b));
    seqs.push_back(classes_[c].bases);
    std::vector<int> out{c};
    for (;;) {
      seqs.erase(std::remove_if(seqs.begin(), seqs.end(), [](auto& s) { return s.empty(); }),
                 seqs.end());
      if (seqs.empty()) return out;
      int pick = -1;
      for (const auto& s : seqs) {
        int head = s[0];
        bool in_tail = false;
        for (const auto& t : seqs)
          if (std::find(t.begin() + 1, t.end(), head) != t.end()) in_tail = true;
        if (!in_tail) {
          pick = head;
          break;
        }
      }
      if (pick < 0) return out;  // inconsistent MRO: Python raises; keep what we have
      out.push_back(pick);
      for (auto& s : seqs)
        if (!s.empty() && s[0] == pick) s.erase(s.begin());
    }
  }

  const Member* Lookup(int c, const std::string& name, int* owner = nullptr) const {
    for (int k : Mro(c)) {
      auto it = classes_[k].members.items.find(name);
      if (it != classes_[k].members.items.end()) {
        if (owner) *owner = k;
        return &it->second;
      }
    }
    return nullptr;
  }

  std::set<std::string> Dir(int c) const {
    std::set<std::string> names;
    for (int k : Mro(c))
      for (const auto& [n, _] : classes_[k].members.items) names.insert(n);
    return names;
  }

  bool IsTestCase(int c) const {
    for (int k : Mro(c))
      for (const auto& e : classes_[k].external_bases)
        if (LooksLikeTestCase(e)) return true;
    return false;
  }

  bool HasTorchParametrizer(const FunctionDef* fn) const {
    if (!fn) return false;
    for (TSNode d : fn->decorators) {
      if (!Is(d, "call")) continue;
      std::string q = ev_.CalleeName(d);
      std::string last = LastComponent(q);
      if (StartsWith(q, "pytest")) continue;
      if (last == "parametrize" || last == "ops" || last == "modules" || last == "reparametrize")
        return true;
    }
    return false;
  }

  // ---- instantiation ------------------------------------------------------

  void InstantiateParametrized(int c, int line) {
    for (const std::string& name : Dir(c)) {
      int owner;
      const Member* m = Lookup(c, name, &owner);
      if (!m || !m->fn || m->kind == Member::Kind::kGenerated || !HasTorchParametrizer(m->fn))
        continue;
      if (owner != c) {
        Warn(line, "instantiate_parametrized_tests(" + classes_[c].name + ") deletes inherited `" +
                       name + "` (AttributeError at import)");
        continue;
      }
      Member generic = *m;
      classes_[c].members.Erase(name);
      Expansion ex =
          ExpandTest(ev_, *generic.fn, DeviceContext{}, generic.defined_in, generic.closure);
      for (const auto& [l, p] : ex.problems) Warn(l, p);
      for (Instance& inst : ex.instances) {
        std::string full = generic.name() + "_" + inst.suffix;
        if (Lookup(c, full)) {
          Note(ParsedModule::FirstLine(generic.fn->def), "redefinition of test " + full);
          continue;
        }
        Member g = generic;
        g.kind = Member::Kind::kGenerated;
        g.instance = std::move(inst);  // ex is not read again
        g.generic_class = classes_[c].name;
        g.generic_method = generic.name();
        g.record_kind = "parametrized";
        classes_[c].members.Set(full, std::move(g));
      }
    }
  }

  // `x in only_for`: a str is tested by substring, as Python's `in` does.
  static std::optional<bool> Contains(const Value& v, const std::string& device) {
    if (v.kind == Value::Kind::kStr) return v.text.find(device) != std::string::npos;
    if (v.kind == Value::Kind::kList) {
      for (const auto& item : v.items) {
        if (item.kind != Value::Kind::kStr) return std::nullopt;
        if (item.text == device) return true;
      }
      return false;
    }
    return std::nullopt;
  }

  void InstantiateDeviceType(int g, const std::string& bound_name, TSNode call, int line) {
    Evaluator::Args args = ev_.EvalArgs(call);
    auto kw = [&](const char* name, size_t pos) -> Value {
      auto it = args.keyword.find(name);
      if (it != args.keyword.end()) return it->second;
      return args.positional.size() > pos ? args.positional[pos] : Value::None();
    };
    Value except_for = kw("except_for", 2), only_for = kw("only_for", 3),
          include_lazy = kw("include_lazy", 4);
    std::vector<DeviceSpec> devices = options_.devices;
    if (include_lazy.kind == Value::Kind::kBool && include_lazy.b)
      devices.push_back({"lazy", "lazy"});
    Unbind(bound_name);
    RtClass& generic = classes_[g];
    std::vector<std::string> tests;  // (unbound names' holes are no test name)
    for (const auto& n : generic.members.order)
      if (StartsWith(n, "test")) tests.push_back(n);

    for (const DeviceSpec& dev : devices) {
      bool excluded = false;
      for (auto [filter, keep_if] : {std::pair{&except_for, false}, std::pair{&only_for, true}}) {
        if (filter->kind == Value::Kind::kNone) continue;
        if (filter->kind == Value::Kind::kList && filter->items.empty()) continue;
        if (filter->kind == Value::Kind::kStr && filter->text.empty()) continue;
        std::optional<bool> in = Contains(*filter, dev.type);
        if (!in) {
          Warn(line, "cannot evaluate device filter `" + filter->text + "`; assuming it keeps " +
                         dev.type);
          continue;
        }
        if (*in != keep_if) excluded = true;
      }
      if (lazy_only(dev) && !(include_lazy.kind == Value::Kind::kBool && include_lazy.b))
        excluded = true;
      if (excluded) continue;

      RtClass dc;
      dc.name = classes_[g].name + dev.class_suffix();
      dc.bases = {g};
      dc.external_bases = {"DeviceTypeTestBase"};
      dc.generic_class = classes_[g].name;
      dc.device = dev.method_name;
      classes_.push_back(std::move(dc));
      int d = static_cast<int>(classes_.size()) - 1;
      for (const std::string& name : tests) {
        const Member& m = classes_[g].members.items.at(name);
        if (!m.fn) continue;  // a non-function test* attribute: inspect fails at import
        DeviceContext ctx{dev.type, dev.type == "privateuse1" ? dev.method_name : dev.type};
        Expansion ex = ExpandTest(ev_, *m.fn, ctx, m.defined_in, m.closure);
        for (const auto& [l, p] : ex.problems) Warn(l, p);
        for (Instance& inst : ex.instances) {
          std::string test_name = name + (inst.suffix.empty() ? "" : "_" + inst.suffix) + "_" +
                                  dev.method_name + DtypeSuffix(inst);
          if (Lookup(d, test_name)) {
            Note(ParsedModule::FirstLine(m.fn->def), "redefinition of test " + test_name);
            continue;
          }
          Member gm = m;
          gm.kind = Member::Kind::kGenerated;
          gm.instance = std::move(inst);  // ex is not read again
          gm.generic_class = classes_[g].name;
          gm.generic_method = name;
          gm.record_kind = "device_type";
          gm.device = dev.method_name;
          classes_[d].members.Set(test_name, std::move(gm));
        }
      }
      Bind(classes_[d].name, {Binding::Kind::kClass, d});
    }
    for (const std::string& name : tests) classes_[g].members.Erase(name);
  }

  bool lazy_only(const DeviceSpec& dev) const { return dev.type == "lazy"; }

  // ---- collection ---------------------------------------------------------

  void Collect() {
    std::set<int> seen_functions;
    for (const std::string& name : ns_.order) {
      if (name.empty()) continue;  // unbound
      const Binding& b = ns_.items.at(name);
      if (b.kind == Binding::Kind::kClass) {
        if (TestFlagFalse(b.index)) continue;
        if (IsTestCase(b.index))
          CollectUnittest(name, b.index);
        else if (StartsWith(name, "Test"))
          CollectPytestClass(name, b.index);
      } else if (b.kind == Binding::Kind::kFunction && StartsWith(name, "test")) {
        const FunctionDef& fn = model_.functions[b.index];
        EmitPytest(name, "", fn, {}, nullptr);
      }
    }
  }

  bool TestFlagFalse(int c) const {
    const Member* m = Lookup(c, "__test__");
    if (!m || m->kind != Member::Kind::kAttribute || !m->defined_in) return false;
    for (const ClassMember& cm : m->defined_in->members)
      if (cm.name == "__test__" && Is(cm.value, "false")) return true;
    return false;
  }

  // The class chain's decorators (for skips) from the collected class up.
  std::vector<TSNode> ClassDecorators(int c) const {
    std::vector<TSNode> out;
    for (int k : Mro(c))
      out.insert(out.end(), classes_[k].decorators.begin(), classes_[k].decorators.end());
    return out;
  }

  void CollectUnittest(const std::string& bound, int c) {
    // unittest's getTestCaseNames: dir() sorted, `test` prefix, callable.
    // Dir and Lookup in one walk: each name's member from the first class
    // of the MRO that has it, names sorted.
    std::map<std::string_view, const std::pair<const std::string, Member>*> names;
    for (int k : Mro(c))
      for (const auto& named : classes_[k].members.items)
        if (StartsWith(named.first, "test")) names.try_emplace(named.first, &named);
    const std::vector<TSNode> class_decorators = ClassDecorators(c);
    // What the tests share is described here, on this thread (it reads the
    // evaluator); the records, each independent of the others, are then
    // filled on as many threads as the class's size is worth.
    std::vector<const std::pair<const std::string, Member>*> tests;
    DescribeMemo described;
    const torch_snapshot::TorchSnapshot* snap = nullptr;
    for (const auto& [_, named] : names) {
      const Member& m = named->second;
      if (!m.callable) continue;
      tests.push_back(named);
      DescribeOnceFor(m.fn, m.defined_in, class_decorators, described);
      if (!snap && m.kind == Member::Kind::kGenerated) snap = SnapshotFor(m.instance);
    }
    const size_t first = scan_.tests.size();
    scan_.tests.resize(first + tests.size());  // at most one move of those before
    constexpr size_t kRecordsPerThread = 4096;
    auto fill = [&](size_t, size_t begin, size_t end) {
      OpEntryIdentities op_identities;
      for (size_t k = begin; k < end; ++k) {
        const auto& [name, m] = *tests[k];
        FillUnittestRecord(bound, c, name, m, snap, described.at({m.fn, m.defined_in}),
                           op_identities, scan_.tests[first + k]);
      }
    };
    ForEachRange(tests.size(), kRecordsPerThread, options_.threads, fill);
  }

  // Room for `more` records at once, so that a class of thousands of tests
  // does not move the records collected so far at each doubling.
  void ReserveTests(size_t more) {
    std::vector<TestRecord>& t = scan_.tests;
    if (t.size() + more > t.capacity()) t.reserve(std::max(t.size() + more, 2 * t.capacity()));
  }

  void CollectPytestClass(const std::string& bound, int c) {
    if (Lookup(c, "__init__") || Lookup(c, "__new__")) {
      Note(classes_[c].def ? ParsedModule::FirstLine(classes_[c].def->node) : 0,
           "pytest does not collect class " + bound + ": it has a __init__ or __new__");
      return;
    }
    // Each name once, first where the MRO has it (unbound names' holes in
    // `order` are no test name).
    std::vector<std::string> names;
    std::unordered_set<std::string_view> seen;
    for (int k : Mro(c))
      for (const auto& n : classes_[k].members.order)
        if (StartsWith(n, "test") && seen.insert(n).second) names.push_back(n);
    std::vector<TSNode> class_decorators = ClassDecorators(c);
    for (const std::string& n : names) {
      const Member* m = Lookup(c, n);
      if (!m || !m->fn || m->kind == Member::Kind::kAttribute) continue;
      EmitPytest(n, bound, *m->fn, class_decorators, m);
    }
  }

  void EmitPytest(const std::string& name, const std::string& cls, const FunctionDef& fn,
                  const std::vector<TSNode>& class_decorators, const Member* member) {
    PytestExpansion ex = ExpandPytestParametrize(ev_, fn.decorators, class_decorators);
    for (const auto& [l, p] : ex.problems) Warn(l, p);
    if (!ex.problems.empty()) return;
    ReserveTests(ex.cases.size());
    DescribeMemo described;
    for (const PytestCase& pc : ex.cases) {
      TestRecord& r = scan_.tests.emplace_back();
      r.kind = "pytest";
      r.cls = cls;
      r.generic_class = cls;
      r.generic_method = name;
      r.method = ex.parametrized ? name + "[" + pc.id + "]" : name;
      r.nodeid = NodeId(scan_.path, cls, r.method);
      r.generic_id = NodeId(scan_.path, cls, name);
      Instance as_instance;
      as_instance.kwargs = pc.values;
      FillParams(as_instance, SnapshotFor(as_instance), op_identities_, r);
      for (const auto& mark : pc.marks) r.skips.push_back(mark);
      const ClassDef* owner = member ? member->defined_in : nullptr;
      Apply(DescribeOnceFor(&fn, owner, class_decorators, described), r);
    }
  }

  std::string Repr(const Value& v) const {
    std::string s;
    if (v.kind == Value::Kind::kStr) return "'" + v.text + "'";
    if (PythonStr(v, &s)) return s;
    if (v.kind == Value::Kind::kList) {
      s = "(";
      for (size_t i = 0; i < v.items.size(); ++i) s += (i ? ", " : "") + Repr(v.items[i]);
      return s + (v.items.size() == 1 ? ",)" : ")");
    }
    return v.text;
  }

  // The snapshot an instance's OpInfo/ModuleInfo values index; null when
  // it has none, so that asking for it counts no miss.
  const torch_snapshot::TorchSnapshot* SnapshotFor(const Instance& inst) {
    for (const auto& [_, v] : inst.kwargs)
      if (v.kind == Value::Kind::kOpInfo || v.kind == Value::Kind::kModuleInfo)
        return ev_.snapshot();
    return nullptr;
  }

  // Reads no state of the collector's (records are filled on several
  // threads): `snap` is SnapshotFor(inst), `op_identities` the caller's.
  void FillParams(const Instance& inst, const torch_snapshot::TorchSnapshot* snap,
                  OpEntryIdentities& op_identities, TestRecord& r) const {
    int op = -1, module = -1;
    for (const auto& [k, v] : inst.kwargs) {
      if (k == "dtype" && v.kind == Value::Kind::kDtype) {
        r.params.dtypes = {v.text};
      } else if (k == "dtypes" && v.kind == Value::Kind::kList) {
        r.params.dtypes.clear();
        for (const auto& d : v.items) r.params.dtypes.push_back(d.text);
      } else if (k == "op" && v.kind == Value::Kind::kOpInfo && snap) {
        r.params.op = snap->ops[v.index].name;
        r.params.op_variant = snap->ops[v.index].variant_test_name;
        op = v.index;
      } else if (k == "module_info" && v.kind == Value::Kind::kModuleInfo && snap) {
        r.params.module = snap->modules[v.index].name;
        module = v.index;
      } else if (k == "training" && v.kind == Value::Kind::kBool) {
        r.params.training = v.b;
      } else {
        if (v.kind == Value::Kind::kOpInfo && snap) r.params.op = snap->ops[v.index].name;
        r.params.values.push_back({k, Repr(v)});
      }
    }
    // The OpInfo/ModuleInfo part of the test's content identity; needs the
    // generic test, device and dtype set above.
    if (op >= 0) op_identities.Describe(*snap, snap->ops[op], r);
    if (module >= 0) DescribeModuleEntry(*snap, snap->modules[module], r);
  }

  // Source location, decorators, skips and hash of the defining function:
  // what every test of one function under one class's decorators shares,
  // worked out once (an @ops test makes thousands of records).
  struct Described {
    std::vector<std::string> skips, decorators;
    bool has_fn = false;
    int line_start = 0, line_end = 0;
    std::string source_hash, body, decorators_hash, setup;
  };
  // Described per (function, defining class), under one class's decorators.
  using DescribeMemo = std::map<std::pair<const FunctionDef*, const ClassDef*>, Described>;

  // The memo's description of (fn, owner), made if it is not there yet.
  const Described& DescribeOnceFor(const FunctionDef* fn, const ClassDef* owner,
                                   const std::vector<TSNode>& class_decorators,
                                   DescribeMemo& memo) {
    auto [it, fresh] = memo.try_emplace({fn, owner});
    if (fresh) it->second = DescribeOnce(fn, owner, class_decorators);
    return it->second;
  }

  static void Apply(const Described& d, TestRecord& r) {
    r.skips.insert(r.skips.end(), d.skips.begin(), d.skips.end());
    if (!d.has_fn) return;
    r.line_start = d.line_start;
    r.line_end = d.line_end;
    r.decorators.insert(r.decorators.end(), d.decorators.begin(), d.decorators.end());
    r.source_hash = d.source_hash;
    r.content.body = d.body;
    r.content.decorators = d.decorators_hash;
    r.content.setup = d.setup;
  }

  // The record of test `name` of class `c`, bound as `bound`. Reads no
  // state of the collector's that a thread could write: CollectUnittest
  // fills many at once.
  void FillUnittestRecord(const std::string& bound, int c, const std::string& name, const Member& m,
                          const torch_snapshot::TorchSnapshot* snap, const Described& shared,
                          OpEntryIdentities& op_identities, TestRecord& r) const {
    r.cls = bound;
    r.method = name;
    r.nodeid = NodeId(scan_.path, bound, name);
    r.params.device = classes_[c].device;
    if (m.kind == Member::Kind::kGenerated) {
      r.kind = m.record_kind;
      r.generic_class = m.generic_class;
      r.generic_method = m.generic_method;
      FillParams(m.instance, snap, op_identities, r);
      r.decorators = m.instance.decorators;
      r.skips = m.instance.decorators;
    } else {
      r.kind = "unittest";
      // An inherited test in a device class belongs to its template.
      const std::string& generic_class = classes_[c].generic_class;
      r.generic_class = generic_class.empty() ? bound : generic_class;
      r.generic_method = name;
    }
    r.generic_id = NodeId(scan_.path, r.generic_class, r.generic_method);
    Apply(shared, r);
  }

  Described DescribeOnce(const FunctionDef* fn, const ClassDef* owner,
                         const std::vector<TSNode>& class_decorators) {
    Described d;
    for (TSNode c : class_decorators) {
      std::string q = ev_.QualifiedName(Is(c, "call") ? Field(c, "function") : c);
      if (IsSkipDecorator(q)) d.skips.push_back(DecoratorText(c));
    }
    if (!fn) return d;
    d.has_fn = true;
    d.line_start = ParsedModule::FirstLine(fn->outer);
    d.line_end = m_.LastLine(fn->outer);
    for (TSNode dec : fn->decorators) {
      const std::string& text = DecoratorText(dec);
      d.decorators.push_back(text);
      std::string q = ev_.QualifiedName(Is(dec, "call") ? Field(dec, "function") : dec);
      if (IsSkipDecorator(q)) d.skips.push_back(text);
    }
    TestRecord parts;
    identities_.Describe(*fn, owner, parts);
    d.source_hash = std::move(parts.source_hash);
    d.body = std::move(parts.content.body);
    d.decorators_hash = std::move(parts.content.decorators);
    d.setup = std::move(parts.content.setup);
    return d;
  }

  // A decorator as records show it: whitespace collapsed and at most
  // kMaxDecoratorText characters, computed once per decorator. Every test a
  // decorator makes carries its text, so `@parametrize("x", range(50000))`
  // written out as a 50,000-item list must not be copied 50,000 times.
  const std::string& DecoratorText(TSNode d) {
    auto [it, inserted] = decorator_texts_.try_emplace(d.id);
    if (inserted) {
      it->second = Collapse(m_.Text(d).substr(0, 4 * kMaxDecoratorText));
      if (it->second.size() > kMaxDecoratorText)
        it->second = it->second.substr(0, kMaxDecoratorText - 3) + "...";
    }
    return it->second;
  }

  static std::string Collapse(std::string_view text) {
    std::string out;
    bool space = false;
    for (char c : text) {
      if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
        space = !out.empty();
        continue;
      }
      if (space && !(out.back() == '(' || out.back() == '[' || c == ')' || c == ']')) out += ' ';
      space = false;
      out += c;
    }
    return out;
  }

  const ParsedModule& m_;
  const ModuleModel& model_;
  Evaluator& ev_;
  const CollectOptions& options_;
  FileScan& scan_;
  std::vector<RtClass> classes_;
  // Mro's answers by class index; a deque, so that a reference Mro gave
  // stays valid while later classes are added.
  mutable std::deque<std::optional<std::vector<int>>> mro_;
  OrderedNames<Binding> ns_;
  std::map<const void*, std::string> decorator_texts_;
  SetattrRunner setattr_;
  SourceIdentities identities_;
  OpEntryIdentities op_identities_;
};

}  // namespace

void CollectTests(const ParsedModule& module, const ModuleModel& model, Evaluator& ev,
                  const CollectOptions& options, FileScan& scan) {
  Collector(module, model, ev, options, scan).Run();
}

}  // namespace testmap::python
