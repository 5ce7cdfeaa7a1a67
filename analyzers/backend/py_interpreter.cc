#include "analyzers/backend/py_interpreter.h"

#include <algorithm>
#include <set>

namespace testmap::backend {
namespace {

using K = PyObject::Kind;
using python::Field;
using python::Is;
using python::ParsedModule;

constexpr int kMaxDepth = 24;            // nested calls into backend functions
constexpr size_t kMaxSteps = 2'000'000;  // evaluation steps per scan
constexpr size_t kMaxRange = 100'000;

const std::set<std::string> kBuiltins{"len",     "any",      "all",       "isinstance", "getattr",
                                      "hasattr", "str",      "list",      "tuple",      "sorted",
                                      "set",     "range",    "enumerate", "zip",        "print",
                                      "repr",    "callable", "dict",      "frozenset",  "reversed"};

std::vector<TSNode> NamedChildren(TSNode n) {
  std::vector<TSNode> out;
  for (uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i) {
    TSNode k = ts_node_named_child(n, i);
    if (!Is(k, "comment")) out.push_back(k);
  }
  return out;
}

PyRef Copy(const PyRef& v) { return std::make_shared<PyObject>(*v); }

// Escapes that may appear in the literal parts of an f-string.
std::string Unescaped(std::string_view e) {
  if (e == "\\n") return "\n";
  if (e == "\\t") return "\t";
  if (e == "\\\\") return "\\";
  if (e == "\\'") return "'";
  if (e == "\\\"") return "\"";
  return std::string(e);
}

// Whether a block can leave early (a branch under an unknown condition that
// returns or continues makes whatever follows it uncertain).
bool CanExit(TSNode n) {
  if (Is(n, "return_statement") || Is(n, "continue_statement") || Is(n, "break_statement") ||
      Is(n, "raise_statement"))
    return true;
  if (Is(n, "function_definition") || Is(n, "class_definition") || Is(n, "lambda")) return false;
  for (uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i)
    if (CanExit(ts_node_named_child(n, i))) return true;
  return false;
}

}  // namespace

PyInterpreter::PyInterpreter(TorchLibraryModel& torch, std::map<std::string, PyModule*> modules,
                             std::vector<Diagnostic>* diagnostics)
    : torch_(torch), modules_(std::move(modules)), diagnostics_(diagnostics) {}

Site PyInterpreter::SiteOf(TSNode n, const Frame& f) const {
  return {f.module->path, ParsedModule::FirstLine(n), uncertain_ > 0};
}

std::string PyInterpreter::Text(TSNode n, const Frame& f) const {
  return std::string(f.module->parsed->Text(n));
}

void PyInterpreter::Note(TSNode n, const Frame& f, std::string message) {
  diagnostics_->push_back({Diagnostic::Severity::kWarning, f.module->path,
                           ParsedModule::FirstLine(n), std::move(message)});
}

bool PyInterpreter::Budget(TSNode n, const Frame& f) {
  if (++steps_ <= kMaxSteps) return true;
  if (!out_of_budget_) {
    out_of_budget_ = true;
    diagnostics_->push_back({Diagnostic::Severity::kError, f.module->path,
                             ParsedModule::FirstLine(n),
                             "the Python reader gave up here after " + std::to_string(kMaxSteps) +
                                 " steps; registrations after this point are not read"});
  }
  return false;
}

void PyInterpreter::Run(PyModule* m, bool maybe_not_imported) {
  if (m->state != PyModule::State::kNotRun) return;
  m->state = PyModule::State::kRunning;
  m->globals->vars["__name__"] = PyObject::Str(m->name);
  Frame f{m, m->globals, nullptr};
  if (maybe_not_imported) ++uncertain_;
  ExecBlock(m->parsed->root(), f);
  if (maybe_not_imported) --uncertain_;
  m->state = PyModule::State::kDone;
}

PyModule* PyInterpreter::ImportModule(const std::string& name, Frame& f) {
  auto it = modules_.find(name);
  if (it == modules_.end()) return nullptr;
  // A package runs before its submodules, and gets them as attributes.
  size_t dot = name.rfind('.');
  if (dot != std::string::npos) {
    if (PyModule* parent = ImportModule(name.substr(0, dot), f)) {
      PyRef sub = PyObject::Make(K::kModule, name);
      sub->module = it->second;
      parent->globals->vars.emplace(name.substr(dot + 1), sub);
    }
  }
  Run(it->second);
  return it->second;
}

PyInterpreter::Flow PyInterpreter::ExecBlock(TSNode block, Frame& f) {
  int added = 0;
  Flow flow = Flow::kNormal;
  for (TSNode stmt : NamedChildren(block)) {
    if (out_of_budget_) break;
    int before = uncertain_;
    flow = Exec(stmt, f);
    // ExecIf leaves uncertain_ raised when an undecided branch could exit.
    added += uncertain_ - before;
    if (flow != Flow::kNormal) break;
  }
  uncertain_ -= added;
  return flow;
}

PyInterpreter::Flow PyInterpreter::Exec(TSNode s, Frame& f) {
  if (!Budget(s, f)) return Flow::kReturn;
  std::string_view type = ts_node_type(s);
  if (type == "expression_statement") {
    for (TSNode e : NamedChildren(s)) {
      if (Is(e, "assignment")) {
        TSNode right = Field(e, "right");
        if (ts_node_is_null(right)) continue;  // `x: int`
        PyRef v = Eval(right, f);
        // a = b = value
        Assign(Field(e, "left"), v, f);
      } else if (Is(e, "augmented_assignment")) {
        TSNode left = Field(e, "left");
        PyRef cur = Eval(left, f), add = Eval(Field(e, "right"), f);
        std::string op = Text(Field(e, "operator"), f);
        if (op == "+=" && cur->Is(K::kList) && add->IsSequence()) {
          cur->items.insert(cur->items.end(), add->items.begin(), add->items.end());
        } else if (op == "+=" && cur->Is(K::kStr) && add->Is(K::kStr)) {
          Assign(left, PyObject::Str(cur->text + add->text), f);
        } else {
          Assign(left, PyObject::Unknown(Text(e, f)), f);
        }
      } else {
        Eval(e, f);
      }
    }
    return Flow::kNormal;
  }
  if (type == "function_definition") {
    DefineFunction(s, {}, f);
    return Flow::kNormal;
  }
  if (type == "decorated_definition") {
    std::vector<TSNode> decorators;
    for (TSNode c : NamedChildren(s))
      if (Is(c, "decorator")) decorators.push_back(c);
    TSNode def = Field(s, "definition");
    if (Is(def, "function_definition")) {
      DefineFunction(def, decorators, f);
    } else if (Is(def, "class_definition")) {
      f.env->vars[Text(Field(def, "name"), f)] = PyObject::Unknown("class");
    }
    return Flow::kNormal;
  }
  if (type == "class_definition") {
    f.env->vars[Text(Field(s, "name"), f)] = PyObject::Unknown("class");
    return Flow::kNormal;
  }
  if (type == "if_statement") return ExecIf(s, f);
  if (type == "for_statement") return ExecFor(s, f);
  if (type == "try_statement") {
    Flow flow = ExecBlock(Field(s, "body"), f);
    if (flow != Flow::kNormal) return flow;
    for (TSNode c : NamedChildren(s))
      if (Is(c, "else_clause") || Is(c, "finally_clause")) {
        TSNode body = Field(c, "body");
        flow = ExecBlock(ts_node_is_null(body) ? NamedChildren(c).back() : body, f);
        if (flow != Flow::kNormal) return flow;
      }
    return Flow::kNormal;
  }
  if (type == "with_statement") return ExecBlock(Field(s, "body"), f);
  if (type == "return_statement") {
    std::vector<TSNode> kids = NamedChildren(s);
    f.returned = kids.empty() ? PyObject::None() : Eval(kids[0], f);
    return Flow::kReturn;
  }
  if (type == "raise_statement") return Flow::kReturn;
  if (type == "break_statement") return Flow::kBreak;
  if (type == "continue_statement") return Flow::kContinue;
  if (type == "import_statement" || type == "import_from_statement") {
    Import(s, f);
    return Flow::kNormal;
  }
  // pass, assert, del, global, nonlocal, while (registration loops are
  // for loops in practice), future imports: nothing to follow.
  return Flow::kNormal;
}

void PyInterpreter::Assign(TSNode target, const PyRef& value, Frame& f) {
  if (Is(target, "identifier")) {
    f.env->vars[Text(target, f)] = value;
    return;
  }
  if (Is(target, "pattern_list") || Is(target, "tuple_pattern") || Is(target, "list_pattern")) {
    std::vector<TSNode> parts = NamedChildren(target);
    bool fits = value->IsSequence() && value->items.size() == parts.size();
    for (size_t i = 0; i < parts.size(); ++i)
      Assign(parts[i], fits ? value->items[i] : PyObject::Unknown(Text(parts[i], f)), f);
  }
  // Attributes and subscripts of objects: not tracked.
}

void PyInterpreter::Import(TSNode s, Frame& f) {
  auto bind_module = [&](const std::string& dotted, const std::string& as, bool whole) {
    // `import a.b` binds `a`; `import a.b as x` binds x to a.b.
    std::string target = whole ? dotted : dotted.substr(0, dotted.find('.'));
    PyModule* m = ImportModule(dotted, f) ? modules_[target] : nullptr;
    if (m) {
      PyRef v = PyObject::Make(K::kModule, target);
      v->module = m;
      f.env->vars[as] = v;
    } else {
      f.env->vars[as] = PyObject::Make(K::kName, target);
    }
  };
  if (Is(s, "import_statement")) {
    for (TSNode c : NamedChildren(s)) {
      if (Is(c, "dotted_name")) {
        std::string name = Text(c, f);
        bind_module(name, name.substr(0, name.find('.')), false);
      } else if (Is(c, "aliased_import")) {
        bind_module(Text(Field(c, "name"), f), Text(Field(c, "alias"), f), true);
      }
    }
    return;
  }
  // from X import a, b as c
  TSNode from = Field(s, "module_name");
  std::string module;
  if (Is(from, "relative_import")) {
    std::string text = Text(from, f);
    size_t dots = text.find_first_not_of('.');
    if (dots == std::string::npos) dots = text.size();
    std::string base =
        f.module->is_package ? f.module->name : f.module->name.substr(0, f.module->name.rfind('.'));
    for (size_t i = 1; i < dots && base.find('.') != std::string::npos; ++i)
      base = base.substr(0, base.rfind('.'));
    module = base + (dots < text.size() ? "." + text.substr(dots) : "");
  } else {
    module = Text(from, f);
  }
  PyModule* m = ImportModule(module, f);
  for (TSNode c : NamedChildren(s)) {
    if (ts_node_eq(c, from)) continue;
    if (Is(c, "wildcard_import")) {
      if (m)
        for (const auto& [k, v] : m->globals->vars)
          if (!k.empty() && k[0] != '_') f.env->vars[k] = v;
      continue;
    }
    std::string name, as;
    if (Is(c, "aliased_import")) {
      name = Text(Field(c, "name"), f);
      as = Text(Field(c, "alias"), f);
    } else if (Is(c, "dotted_name") || Is(c, "identifier")) {
      name = as = Text(c, f);
    } else {
      continue;
    }
    if (!m) {
      f.env->vars[as] = PyObject::Make(K::kName, module + "." + name);
      continue;
    }
    if (PyModule* sub = ImportModule(module + "." + name, f)) {
      PyRef v = PyObject::Make(K::kModule, sub->name);
      v->module = sub;
      f.env->vars[as] = v;
    } else if (PyRef v = m->globals->Find(name)) {
      f.env->vars[as] = v;
    } else {
      f.env->vars[as] = PyObject::Unknown(module + "." + name);
    }
  }
}

void PyInterpreter::DefineFunction(TSNode def, const std::vector<TSNode>& decorators, Frame& f) {
  PyRef fn = PyObject::Make(K::kFunction);
  fn->node = def;
  fn->module = f.module;
  if (f.env != f.module->globals) fn->closure = f.env;
  fn->name = Text(Field(def, "name"), f);
  fn->signature = Text(Field(def, "parameters"), f);
  std::vector<PyRef> decos;
  for (TSNode d : decorators) {
    std::vector<TSNode> kids = NamedChildren(d);
    decos.push_back(kids.empty() ? PyObject::Unknown() : Eval(kids[0], f));
  }
  // Decorators apply bottom-up. A decorator that returns nothing known
  // (register_kernel returns None) leaves the name on the function.
  PyRef bound = fn;
  for (size_t i = decos.size(); i-- > 0;) {
    PyArgs args;
    args.positional.push_back(bound);
    PyRef r = Call(decos[i], args, f, decorators[i]);
    if (r && (r->Is(K::kFunction) || r->Is(K::kCustomOp) || r->Is(K::kDecorator))) bound = r;
  }
  f.env->vars[fn->name] = bound;
}

PyInterpreter::Flow PyInterpreter::ExecIf(TSNode s, Frame& f) {
  // if / elif / else as a list of (condition, body); else has no condition.
  std::vector<std::pair<TSNode, TSNode>> arms{{Field(s, "condition"), Field(s, "consequence")}};
  for (TSNode c : NamedChildren(s)) {
    if (Is(c, "elif_clause")) arms.push_back({Field(c, "condition"), Field(c, "consequence")});
    if (Is(c, "else_clause")) arms.push_back({TSNode{}, Field(c, "body")});
  }
  bool could_exit = false;
  int undecided = 0;
  for (const auto& [cond, body] : arms) {
    std::optional<bool> t = true;
    if (!ts_node_is_null(cond)) t = Truth(Eval(cond, f));
    if (t && !*t) continue;
    if (t && undecided == 0) return ExecBlock(body, f);  // the branch that runs
    // An arm that may or may not run: read it, keep going with the rest.
    if (!t) ++undecided;
    ++uncertain_;
    ExecBlock(body, f);
    --uncertain_;
    could_exit = could_exit || CanExit(body);
    if (t) break;  // an else, or a true arm after undecided ones
  }
  // Whatever follows in this block may not run: stays uncertain until the
  // enclosing block ends (ExecBlock takes it back).
  if (undecided && could_exit) ++uncertain_;
  return Flow::kNormal;
}

PyInterpreter::Flow PyInterpreter::ExecFor(TSNode s, Frame& f) {
  TSNode right = Field(s, "right");
  PyRef iter = Eval(right, f);
  if (iter->Is(K::kStr)) {
    std::vector<PyRef> chars;
    for (char c : iter->text) chars.push_back(PyObject::Str(std::string(1, c)));
    iter = PyObject::List(chars);
  }
  if (!iter->IsSequence()) {
    Note(s, f,
         "loop over " + Text(right, f) +
             ", which is not known statically: registrations in its body are not read");
    return Flow::kNormal;
  }
  std::vector<PyRef> items = iter->items;  // the body may append to the list
  bool broke = false;
  for (const PyRef& item : items) {
    Assign(Field(s, "left"), item, f);
    if (item->maybe) ++uncertain_;
    Flow flow = ExecBlock(Field(s, "body"), f);
    if (item->maybe) --uncertain_;
    if (flow == Flow::kBreak) {
      broke = true;
      break;
    }
    if (flow == Flow::kReturn) return flow;
  }
  if (!broke)
    for (TSNode c : NamedChildren(s))
      if (Is(c, "else_clause")) return ExecBlock(Field(c, "body"), f);
  return Flow::kNormal;
}

PyRef PyInterpreter::Lookup(const std::string& name, Frame& f) {
  if (PyRef v = f.env->Find(name)) return v;
  if (auto it = f.module->globals->vars.find(name); it != f.module->globals->vars.end())
    return it->second;
  if (kBuiltins.count(name)) return PyObject::Make(K::kName, "builtins." + name);
  return PyObject::Unknown(name);
}

PyRef PyInterpreter::Eval(TSNode n, Frame& f) {
  if (ts_node_is_null(n)) return PyObject::Unknown();
  if (!Budget(n, f)) return PyObject::Unknown();
  std::string_view type = ts_node_type(n);
  if (type == "identifier") return Lookup(Text(n, f), f);
  if (type == "attribute") {
    PyRef obj = Eval(Field(n, "object"), f);
    return Attribute(obj, Text(Field(n, "attribute"), f), f, n);
  }
  if (type == "call") return EvalCall(n, f);
  if (type == "string" || type == "concatenated_string") return EvalString(n, f);
  if (type == "integer") {
    try {
      std::string t = Text(n, f);
      t.erase(std::remove(t.begin(), t.end(), '_'), t.end());
      return PyObject::Int(std::stoll(t, nullptr, 0));
    } catch (...) {
      return PyObject::Unknown(Text(n, f));
    }
  }
  if (type == "true" || type == "false") return PyObject::Bool(type == "true");
  if (type == "none") return PyObject::None();
  if (type == "list" || type == "set" || type == "tuple" || type == "expression_list") {
    std::vector<PyRef> items;
    for (TSNode c : NamedChildren(n)) {
      if (Is(c, "list_splat")) {
        PyRef inner = Eval(NamedChildren(c)[0], f);
        if (inner->IsSequence()) {
          items.insert(items.end(), inner->items.begin(), inner->items.end());
          continue;
        }
        return PyObject::Unknown(Text(n, f));
      }
      items.push_back(Eval(c, f));
    }
    return PyObject::List(items,
                          type == "tuple" || type == "expression_list" ? K::kTuple : K::kList);
  }
  if (type == "parenthesized_expression") {
    std::vector<TSNode> kids = NamedChildren(n);
    return kids.empty() ? PyObject::Unknown() : Eval(kids[0], f);
  }
  if (type == "list_comprehension" || type == "generator_expression" || type == "set_comprehension")
    return EvalComprehension(n, f);
  if (type == "boolean_operator") {
    std::string op = Text(Field(n, "operator"), f);
    PyRef left = Eval(Field(n, "left"), f);
    std::optional<bool> lt = Truth(left);
    if (lt && ((op == "and" && !*lt) || (op == "or" && *lt))) return left;
    PyRef right = Eval(Field(n, "right"), f);
    if (lt) return right;
    std::optional<bool> rt = Truth(right);
    if (rt && op == "and" && !*rt) return PyObject::Bool(false);
    if (rt && op == "or" && *rt) return PyObject::Bool(true);
    return PyObject::Unknown(Text(n, f));
  }
  if (type == "not_operator") {
    std::optional<bool> t = Truth(Eval(Field(n, "argument"), f));
    return t ? PyObject::Bool(!*t) : PyObject::Unknown(Text(n, f));
  }
  if (type == "comparison_operator") return EvalComparison(n, f);
  if (type == "binary_operator") {
    PyRef a = Eval(Field(n, "left"), f), b = Eval(Field(n, "right"), f);
    std::string op = Text(Field(n, "operator"), f);
    if (op == "+" && a->Is(K::kStr) && b->Is(K::kStr)) return PyObject::Str(a->text + b->text);
    if (op == "+" && a->IsSequence() && b->IsSequence()) {
      std::vector<PyRef> items = a->items;
      items.insert(items.end(), b->items.begin(), b->items.end());
      return PyObject::List(items, a->kind);
    }
    if (a->Is(K::kInt) && b->Is(K::kInt)) {
      if (op == "+") return PyObject::Int(a->i + b->i);
      if (op == "-") return PyObject::Int(a->i - b->i);
      if (op == "*") return PyObject::Int(a->i * b->i);
    }
    return PyObject::Unknown(Text(n, f));
  }
  if (type == "conditional_expression") {
    std::vector<TSNode> kids = NamedChildren(n);
    if (kids.size() != 3) return PyObject::Unknown(Text(n, f));
    std::optional<bool> t = Truth(Eval(kids[1], f));
    if (t) return Eval(*t ? kids[0] : kids[2], f);
    return PyObject::Unknown(Text(n, f));
  }
  if (type == "subscript") {
    PyRef v = Eval(Field(n, "value"), f);
    PyRef index = Eval(Field(n, "subscript"), f);
    if (v->IsSequence() && index->Is(K::kInt)) {
      int64_t i = index->i < 0 ? index->i + static_cast<int64_t>(v->items.size()) : index->i;
      if (i >= 0 && i < static_cast<int64_t>(v->items.size())) return v->items[i];
    }
    return PyObject::Unknown(Text(n, f));
  }
  if (type == "lambda") {
    PyRef fn = PyObject::Make(K::kFunction);
    fn->node = n;
    fn->module = f.module;
    if (f.env != f.module->globals) fn->closure = f.env;
    fn->name = "<lambda>";
    TSNode params = Field(n, "parameters");
    fn->signature = ts_node_is_null(params) ? "" : Text(params, f);
    return fn;
  }
  return PyObject::Unknown(Text(n, f));
}

PyRef PyInterpreter::EvalString(TSNode n, Frame& f) {
  if (Is(n, "concatenated_string")) {
    std::string out;
    for (TSNode part : NamedChildren(n)) {
      PyRef p = EvalString(part, f);
      if (!p->Is(K::kStr)) return PyObject::Unknown(Text(n, f));
      out += p->text;
    }
    PyRef s = PyObject::Str(out);
    s->file = f.module->path;
    s->line = ParsedModule::FirstLine(n);
    return s;
  }
  bool interpolated = false;
  for (TSNode c : NamedChildren(n)) interpolated = interpolated || Is(c, "interpolation");
  PyRef s;
  if (!interpolated) {
    python::Value v = f.module->strings->Eval(n);
    s = v.kind == python::Value::Kind::kStr ? PyObject::Str(v.text) : PyObject::Unknown(Text(n, f));
  } else {
    std::string out;
    for (TSNode part : NamedChildren(n)) {
      if (Is(part, "string_content")) {
        out += f.module->parsed->Text(part);
      } else if (Is(part, "escape_sequence")) {
        out += Unescaped(f.module->parsed->Text(part));
      } else if (Is(part, "interpolation")) {
        std::string piece;
        if (!ts_node_is_null(Field(part, "format_specifier")) ||
            !StrOf(Eval(Field(part, "expression"), f), &piece))
          return PyObject::Unknown(Text(n, f));
        out += piece;
      }
    }
    s = PyObject::Str(out);
  }
  s->file = f.module->path;
  s->line = ParsedModule::FirstLine(n);
  return s;
}

PyRef PyInterpreter::EvalComparison(TSNode n, Frame& f) {
  // Operands are the named children; the operators are the tokens between.
  std::vector<PyRef> operands;
  std::vector<std::string> ops;
  std::string pending;
  for (uint32_t i = 0, c = ts_node_child_count(n); i < c; ++i) {
    TSNode k = ts_node_child(n, i);
    if (ts_node_is_named(k)) {
      if (!pending.empty()) ops.push_back(pending);
      pending.clear();
      operands.push_back(Eval(k, f));
    } else {
      pending += pending.empty() ? Text(k, f) : " " + Text(k, f);
    }
  }
  if (operands.size() != ops.size() + 1) return PyObject::Unknown(Text(n, f));
  bool all_true = true;
  for (size_t i = 0; i < ops.size(); ++i) {
    const PyRef& a = operands[i];
    const PyRef& b = operands[i + 1];
    const std::string& op = ops[i];
    std::optional<bool> r;
    if (op == "==" || op == "!=") {
      r = Equal(a, b);
      if (r && op == "!=") r = !*r;
    } else if (op == "in" || op == "not in") {
      if (a->Is(K::kStr) && b->Is(K::kStr)) {
        r = b->text.find(a->text) != std::string::npos;
      } else if (b->IsSequence()) {
        r = false;
        for (const auto& item : b->items) {
          std::optional<bool> e = Equal(a, item);
          if (!e) {
            r.reset();
            break;
          }
          if (*e) {
            r = true;
            break;
          }
        }
      }
      if (r && op == "not in") r = !*r;
    } else if (op == "is" || op == "is not") {
      bool an = a->Is(K::kNone), bn = b->Is(K::kNone);
      if (an && bn)
        r = true;
      else if ((an && b->kind != K::kUnknown) || (bn && a->kind != K::kUnknown))
        r = false;
      if (r && op == "is not") r = !*r;
    } else if (a->Is(K::kInt) && b->Is(K::kInt)) {
      if (op == "<") r = a->i < b->i;
      if (op == "<=") r = a->i <= b->i;
      if (op == ">") r = a->i > b->i;
      if (op == ">=") r = a->i >= b->i;
    }
    if (!r) return PyObject::Unknown(Text(n, f));
    if (!*r) return PyObject::Bool(false);
    all_true = all_true && *r;
  }
  return PyObject::Bool(all_true);
}

PyRef PyInterpreter::EvalComprehension(TSNode n, Frame& f) {
  std::vector<TSNode> kids = NamedChildren(n);
  if (kids.empty()) return PyObject::Unknown(Text(n, f));
  TSNode body = kids[0];
  std::vector<TSNode> clauses(kids.begin() + 1, kids.end());
  auto env = std::make_shared<PyEnv>();
  env->parent = f.env;
  Frame inner{f.module, env, nullptr};
  std::vector<PyRef> out;
  bool unknown = false;
  std::function<void(size_t, bool)> gen = [&](size_t ci, bool maybe) {
    if (unknown || out_of_budget_) return;
    if (ci == clauses.size()) {
      PyRef v = Eval(body, inner);
      if (maybe) {
        v = Copy(v);
        v->maybe = true;
      }
      out.push_back(v);
      return;
    }
    TSNode c = clauses[ci];
    if (Is(c, "for_in_clause")) {
      PyRef iter = Eval(Field(c, "right"), inner);
      if (!iter->IsSequence()) {
        unknown = true;
        return;
      }
      for (const PyRef& item : iter->items) {
        Assign(Field(c, "left"), item, inner);
        gen(ci + 1, maybe || item->maybe);
      }
    } else if (Is(c, "if_clause")) {
      std::vector<TSNode> cond = NamedChildren(c);
      std::optional<bool> t = cond.empty() ? std::nullopt : Truth(Eval(cond[0], inner));
      if (t && !*t) return;
      gen(ci + 1, maybe || !t);
    } else {
      unknown = true;
    }
  };
  gen(0, false);
  if (unknown) return PyObject::Unknown(Text(n, f));
  return PyObject::List(out);
}

PyArgs PyInterpreter::EvalArgs(TSNode arguments, Frame& f) {
  PyArgs args;
  for (TSNode c : NamedChildren(arguments)) {
    if (Is(c, "keyword_argument")) {
      args.keyword[Text(Field(c, "name"), f)] = Eval(Field(c, "value"), f);
    } else if (Is(c, "list_splat")) {
      PyRef inner = Eval(NamedChildren(c)[0], f);
      if (inner->IsSequence())
        args.positional.insert(args.positional.end(), inner->items.begin(), inner->items.end());
      else
        args.positional.push_back(PyObject::Unknown(Text(c, f)));
    } else if (Is(c, "dictionary_splat")) {
      continue;
    } else {
      args.positional.push_back(Eval(c, f));
    }
  }
  return args;
}

PyRef PyInterpreter::EvalCall(TSNode call, Frame& f) {
  PyRef callee = Eval(Field(call, "function"), f);
  TSNode arguments = Field(call, "arguments");
  PyArgs args;
  if (Is(arguments, "generator_expression"))
    args.positional.push_back(EvalComprehension(arguments, f));
  else if (!ts_node_is_null(arguments))
    args = EvalArgs(arguments, f);
  return Call(callee, args, f, call);
}

PyRef PyInterpreter::Attribute(const PyRef& obj, const std::string& attr, Frame& f, TSNode at) {
  switch (obj->kind) {
    case K::kModule: {
      PyModule* m = obj->module;
      if (m->state == PyModule::State::kNotRun) Run(m);
      if (PyRef v = m->globals->Find(attr)) return v;
      if (PyModule* sub = ImportModule(m->name + "." + attr, f)) {
        PyRef v = PyObject::Make(K::kModule, sub->name);
        v->module = sub;
        return v;
      }
      return PyObject::Unknown(m->name + "." + attr);
    }
    case K::kList:
      if (attr == "append" || attr == "extend") break;
      return PyObject::Unknown(attr);
    case K::kStr:
      break;
    case K::kUnknown:
      return PyObject::Unknown(obj->text + "." + attr);
    default:
      if (PyRef v = torch_.Attribute(obj, attr, SiteOf(at, f))) return v;
      return PyObject::Unknown(Text(at, f));
  }
  PyRef m = PyObject::Make(K::kBoundMethod, attr);
  m->self = obj;
  return m;
}

PyRef PyInterpreter::Call(const PyRef& callee, const PyArgs& args, Frame& f, TSNode at) {
  if (!Budget(at, f)) return PyObject::Unknown();
  if (callee->Is(K::kFunction)) return CallFunction(callee, args, at);
  if (callee->Is(K::kName) && callee->text.rfind("builtins.", 0) == 0)
    return Builtin(callee->text.substr(9), args, f, at);
  if (callee->Is(K::kBoundMethod) && callee->self) {
    const PyRef& self = callee->self;
    const std::string& m = callee->text;
    PyRef a0 = args.Get(0, "");
    if (self->Is(K::kList)) {
      if (m == "append" && a0) self->items.push_back(a0);
      if (m == "extend" && a0 && a0->IsSequence())
        self->items.insert(self->items.end(), a0->items.begin(), a0->items.end());
      return PyObject::None();
    }
    if (self->Is(K::kStr)) {
      const std::string& s = self->text;
      if ((m == "startswith" || m == "endswith") && a0) {
        std::vector<PyRef> options = a0->IsSequence() ? a0->items : std::vector<PyRef>{a0};
        for (const auto& o : options) {
          if (!o->Is(K::kStr)) return PyObject::Unknown(Text(at, f));
          const std::string& p = o->text;
          bool hit = m == "startswith"
                         ? s.rfind(p, 0) == 0
                         : s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
          if (hit) return PyObject::Bool(true);
        }
        return PyObject::Bool(false);
      }
      if (m == "split" && (!a0 || a0->Is(K::kStr))) {
        std::string sep = a0 ? a0->text : " ";
        std::vector<PyRef> parts;
        size_t start = 0;
        for (size_t pos; !sep.empty() && (pos = s.find(sep, start)) != std::string::npos;
             start = pos + sep.size())
          parts.push_back(PyObject::Str(s.substr(start, pos - start)));
        parts.push_back(PyObject::Str(s.substr(start)));
        return PyObject::List(parts);
      }
      if (m == "replace" && a0 && a0->Is(K::kStr) && args.Get(1, "") &&
          args.Get(1, "")->Is(K::kStr) && !a0->text.empty()) {
        std::string out = s;
        for (size_t pos = 0; (pos = out.find(a0->text, pos)) != std::string::npos;
             pos += args.Get(1, "")->text.size())
          out.replace(pos, a0->text.size(), args.Get(1, "")->text);
        return PyObject::Str(out);
      }
      if (m == "lower" || m == "upper") {
        std::string out = s;
        for (char& c : out) c = m == "lower" ? std::tolower(c) : std::toupper(c);
        return PyObject::Str(out);
      }
      if (m == "strip") {
        size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
        return PyObject::Str(b == std::string::npos ? "" : s.substr(b, e - b + 1));
      }
      return PyObject::Unknown(Text(at, f));
    }
  }
  if (PyRef v = torch_.Call(callee, args, SiteOf(at, f))) return v;
  return PyObject::Unknown(Text(at, f));
}

PyRef PyInterpreter::CallFunction(const PyRef& fn, const PyArgs& args, TSNode at) {
  PyModule* m = fn->module;
  if (depth_ >= kMaxDepth) return PyObject::Unknown(fn->name + "(...)");
  auto env = std::make_shared<PyEnv>();
  env->parent = fn->closure;
  Frame callee{m, env, nullptr};
  TSNode params = Field(fn->node, "parameters");
  size_t next = 0;
  for (TSNode p : ts_node_is_null(params) ? std::vector<TSNode>{} : NamedChildren(params)) {
    std::string name;
    TSNode default_value{};
    if (Is(p, "identifier")) {
      name = Text(p, callee);
    } else if (Is(p, "default_parameter") || Is(p, "typed_default_parameter")) {
      name = Text(Field(p, "name"), callee);
      default_value = Field(p, "value");
    } else if (Is(p, "typed_parameter")) {
      std::vector<TSNode> kids = NamedChildren(p);
      if (kids.empty()) continue;
      if (Is(kids[0], "list_splat_pattern") || Is(kids[0], "dictionary_splat_pattern")) {
        p = kids[0];
      } else {
        name = Text(kids[0], callee);
      }
    }
    if (Is(p, "list_splat_pattern")) {
      std::vector<PyRef> rest;
      while (next < args.positional.size()) rest.push_back(args.positional[next++]);
      std::vector<TSNode> kids = NamedChildren(p);
      if (!kids.empty()) env->vars[Text(kids[0], callee)] = PyObject::List(rest, K::kTuple);
      continue;
    }
    if (Is(p, "dictionary_splat_pattern")) {
      std::vector<TSNode> kids = NamedChildren(p);
      if (!kids.empty()) env->vars[Text(kids[0], callee)] = PyObject::Unknown("kwargs");
      continue;
    }
    if (name.empty()) continue;
    PyRef v;
    if (next < args.positional.size()) {
      v = args.positional[next++];
    } else if (auto it = args.keyword.find(name); it != args.keyword.end()) {
      v = it->second;
    } else if (!ts_node_is_null(default_value)) {
      v = Eval(default_value, callee);
    } else {
      v = PyObject::Unknown(name);
    }
    env->vars[name] = v;
  }
  ++depth_;
  PyRef result;
  if (Is(fn->node, "lambda")) {
    result = Eval(Field(fn->node, "body"), callee);
  } else {
    ExecBlock(Field(fn->node, "body"), callee);
    result = callee.returned ? callee.returned : PyObject::None();
  }
  --depth_;
  (void)at;
  return result;
}

std::optional<bool> PyInterpreter::Truth(const PyRef& v) const {
  switch (v->kind) {
    case K::kUnknown:
      return std::nullopt;
    case K::kNone:
      return false;
    case K::kBool:
      return v->b;
    case K::kInt:
      return v->i != 0;
    case K::kStr:
      return !v->text.empty();
    case K::kList:
    case K::kTuple: {
      if (v->items.empty()) return false;
      for (const auto& i : v->items)
        if (!i->maybe) return true;
      return std::nullopt;
    }
    default:
      return true;
  }
}

std::optional<bool> PyInterpreter::Equal(const PyRef& a, const PyRef& b) const {
  if (a->Is(K::kUnknown) || b->Is(K::kUnknown)) return std::nullopt;
  if (a->Is(K::kNone) || b->Is(K::kNone)) return a->kind == b->kind;
  auto simple = [](const PyRef& v) { return v->Is(K::kStr) || v->Is(K::kInt) || v->Is(K::kBool); };
  if (simple(a) && simple(b)) {
    if (a->Is(K::kStr) != b->Is(K::kStr)) return false;
    if (a->Is(K::kStr)) return a->text == b->text;
    return (a->Is(K::kBool) ? int64_t{a->b} : a->i) == (b->Is(K::kBool) ? int64_t{b->b} : b->i);
  }
  if (a->kind == b->kind && (a->Is(K::kOpOverload) || a->Is(K::kOpPacket) || a->Is(K::kTypeRepr)))
    return a->text == b->text;
  if (a->IsSequence() && b->IsSequence()) {
    if (a->items.size() != b->items.size()) return false;
    for (size_t i = 0; i < a->items.size(); ++i) {
      std::optional<bool> e = Equal(a->items[i], b->items[i]);
      if (!e || !*e) return e;
    }
    return true;
  }
  return std::nullopt;
}

bool PyInterpreter::StrOf(const PyRef& v, std::string* out) const {
  switch (v->kind) {
    case K::kStr:
      *out = v->text;
      return true;
    case K::kInt:
      *out = std::to_string(v->i);
      return true;
    case K::kBool:
      *out = v->b ? "True" : "False";
      return true;
    case K::kNone:
      *out = "None";
      return true;
    default:
      return torch_.Str(v, out);
  }
}

PyRef PyInterpreter::Builtin(const std::string& name, const PyArgs& args, Frame& f, TSNode at) {
  PyRef a0 = args.Get(0, ""), a1 = args.Get(1, "");
  auto unknown = [&] { return PyObject::Unknown(Text(at, f)); };
  if (name == "print") return PyObject::None();
  if (!a0) return unknown();
  if (name == "len") {
    if (a0->IsSequence()) return PyObject::Int(static_cast<int64_t>(a0->items.size()));
    if (a0->Is(K::kStr)) return PyObject::Int(static_cast<int64_t>(a0->text.size()));
    return unknown();
  }
  if (name == "any" || name == "all") {
    if (!a0->IsSequence()) return unknown();
    bool is_any = name == "any", undecided = false;
    for (const auto& item : a0->items) {
      std::optional<bool> t = item->maybe ? std::nullopt : Truth(item);
      if (!t) {
        undecided = true;
      } else if (*t == is_any) {
        return PyObject::Bool(is_any);
      }
    }
    return undecided ? unknown() : PyObject::Bool(!is_any);
  }
  if (name == "isinstance") {
    if (!a1 || a0->Is(K::kUnknown)) return unknown();
    std::vector<PyRef> classes = a1->IsSequence() ? a1->items : std::vector<PyRef>{a1};
    for (const auto& c : classes) {
      if (!c->Is(K::kName)) return unknown();
      std::string cls = c->text.substr(c->text.rfind('.') + 1);
      bool hit = (cls == "OpOverloadPacket" && a0->Is(K::kOpPacket)) ||
                 (cls == "OpOverload" && a0->Is(K::kOpOverload)) ||
                 (cls == "CustomOpDef" && a0->Is(K::kCustomOp)) ||
                 (cls == "str" && a0->Is(K::kStr)) || (cls == "list" && a0->Is(K::kList)) ||
                 (cls == "tuple" && a0->Is(K::kTuple)) || (cls == "int" && a0->Is(K::kInt)) ||
                 (cls == "bool" && a0->Is(K::kBool));
      if (hit) return PyObject::Bool(true);
      static const std::set<std::string> known{
          "OpOverloadPacket", "OpOverload", "CustomOpDef", "str", "list", "tuple", "int", "bool"};
      if (!known.count(cls)) return unknown();
    }
    return PyObject::Bool(false);
  }
  if (name == "getattr" || name == "hasattr") {
    if (!a1 || !a1->Is(K::kStr)) return unknown();
    if (name == "hasattr" && a0->Is(K::kOpPacket))
      return PyObject::Bool(a1->text == "overloads" || torch_.HasOverload(a0->text, a1->text));
    if (name == "hasattr") return unknown();
    PyRef v = Attribute(a0, a1->text, f, at);
    // getattr(packet, name) while walking packet.overloads(): the overload
    // remembers the packet it was expanded from.
    if (a0->Is(K::kOpPacket) && v->Is(K::kOpOverload)) {
      v = Copy(v);
      v->name = a0->text;
      v->maybe = v->maybe || a1->maybe;
    }
    return v;
  }
  if (name == "str" || name == "repr") {
    std::string s;
    if (name == "str" && StrOf(a0, &s)) return PyObject::Str(s);
    return unknown();
  }
  if (name == "list" || name == "tuple" || name == "sorted" || name == "set" ||
      name == "frozenset" || name == "reversed") {
    if (!a0->IsSequence()) return unknown();
    std::vector<PyRef> items = a0->items;
    if (name == "reversed") std::reverse(items.begin(), items.end());
    if (name == "sorted") {
      for (const auto& i : items)
        if (!i->Is(K::kStr)) return unknown();
      std::sort(items.begin(), items.end(),
                [](const PyRef& a, const PyRef& b) { return a->text < b->text; });
    }
    return PyObject::List(items, name == "tuple" ? K::kTuple : K::kList);
  }
  if (name == "range") {
    int64_t lo = 0, hi = 0;
    if (a1) {
      if (!a0->Is(K::kInt) || !a1->Is(K::kInt)) return unknown();
      lo = a0->i;
      hi = a1->i;
    } else {
      if (!a0->Is(K::kInt)) return unknown();
      hi = a0->i;
    }
    if (hi - lo > static_cast<int64_t>(kMaxRange)) return unknown();
    std::vector<PyRef> items;
    for (int64_t i = lo; i < hi; ++i) items.push_back(PyObject::Int(i));
    return PyObject::List(items);
  }
  if (name == "enumerate" && a0->IsSequence()) {
    std::vector<PyRef> items;
    for (size_t i = 0; i < a0->items.size(); ++i)
      items.push_back(
          PyObject::List({PyObject::Int(static_cast<int64_t>(i)), a0->items[i]}, K::kTuple));
    return PyObject::List(items);
  }
  if (name == "zip" && a0->IsSequence() && a1 && a1->IsSequence()) {
    std::vector<PyRef> items;
    for (size_t i = 0; i < std::min(a0->items.size(), a1->items.size()); ++i)
      items.push_back(PyObject::List({a0->items[i], a1->items[i]}, K::kTuple));
    return PyObject::List(items);
  }
  return unknown();
}

}  // namespace testmap::backend
