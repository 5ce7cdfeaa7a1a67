#include "analyzers/python/setattr_tests.h"

#include <memory>

namespace testmap::python {
namespace {

constexpr int kMaxCallDepth = 16;
constexpr size_t kMaxSteps = 200000;  // statements per top-level run

}  // namespace

// A function's local names. Module-level names are the Evaluator's; a
// nested def refers to its defining frame (by reference, so names bound
// there later are seen when it is called, as Python's closures do).
struct SetattrRunner::Frame {
  std::shared_ptr<Evaluator::Locals> vars = std::make_shared<Evaluator::Locals>();
  Value ret = Value::None();
  bool module = false;  // the module's own code: its names are the module's
};

SetattrRunner::SetattrRunner(const ParsedModule& module, const ModuleModel& model, Evaluator& ev)
    : m_(module), model_(model), ev_(ev) {}

bool SetattrRunner::Wants(const Statement& s) const {
  if (s.kind == Statement::Kind::kBlock) return true;
  bool assign = s.kind == Statement::Kind::kAssign;
  if ((s.kind != Statement::Kind::kCall && !assign) || !Is(s.node, "call")) return false;
  TSNode callee = Field(s.node, "function");
  // `FooTest = f(...)`: a class pytest may collect, made by a call.
  if (assign && (LooksLikeTestClassName(s.name) || IsBuiltinType(callee) ||
                 ev_.QualifiedName(callee) == kMakeTestClsWithPatches))
    return true;
  if (!Is(callee, "identifier")) return false;
  auto fn = model_.function_index.find(std::string(m_.Text(callee)));
  if (fn == model_.function_index.end()) return false;
  const FunctionDef& def = model_.functions[fn->second];
  return def.calls_setattr || def.binds_globals || def.makes_classes;
}

bool SetattrRunner::IsBuiltinType(TSNode callee) const {
  if (!Is(callee, "identifier") || m_.Text(callee) != "type") return false;
  return !model_.imports.count("type") && !model_.assignments.count("type") &&
         !model_.function_index.count("type");
}

bool SetattrRunner::Stop(TSNode at, std::string why) {
  if (why_.empty()) {
    why_ = std::move(why);
    why_line_ = ParsedModule::FirstLine(at);
  }
  return false;
}

bool SetattrRunner::Run(const Statement& s, ImportTimeHost& host, std::string* why, int* line) {
  host_ = &host;
  effects_ = true;
  refused_ = false;
  why_.clear();
  steps_ = 0;
  Frame top;
  top.module = true;
  if (s.kind == Statement::Kind::kBlock) {
    Statement1(s.node, top);
  } else if (s.kind == Statement::Kind::kAssign) {
    Value v = Expr(s.node, top);
    if (why_.empty()) BindModuleName(s.node, s.name, v, LooksLikeTestClassName(s.name));
  } else {
    Value fn = ev_.Eval(Field(s.node, "function"));
    EvaluatedArgs args;
    if (EvaluateArguments(s.node, top, &args)) CallFunction(fn, args, s.node);
  }
  *why = why_;
  *line = why_line_;
  return why_.empty();
}

Value SetattrRunner::CallDef(const Value& fn, const std::vector<Value>& args) {
  // A run inside another (a filter evaluated while a generator runs)
  // keeps the outer run's state.
  std::string why = std::move(why_);
  int why_line = why_line_;
  size_t steps = steps_;
  bool effects = effects_, refused = refused_;
  why_.clear();
  steps_ = 0;
  effects_ = false;
  refused_ = false;
  EvaluatedArgs evaluated;
  for (const Value& a : args) evaluated.positional.push_back({TSNode{}, a});
  Value r = CallFunction(fn, evaluated, fn.node);
  if (!why_.empty()) r = Value::Unknown(fn.text);
  // A def that would add tests or bind names, called inside an expression
  // of import-time code (`[make_cls(c) for c in classes]`): what it would
  // have done is missing, which every caller up to the run must say.
  bool refused_inside = refused_;
  std::string inner = std::move(why_);
  int inner_line = why_line_;
  why_ = std::move(why);
  why_line_ = why_line;
  steps_ = steps;
  effects_ = effects;
  refused_ = refused || (refused_inside && !effects);
  if (refused_inside && why_.empty()) {
    why_ = effects ? "a call inside an expression is not followed: " + inner : inner;
    why_line_ = inner_line;
  }
  return r;
}

SetattrRunner::Flow SetattrRunner::Block(TSNode block, Frame& f) {
  for (TSNode s : NamedChildren(block)) {
    Flow flow = Statement1(s, f);
    if (flow != Flow::kNext) return flow;
  }
  return Flow::kNext;
}

bool SetattrRunner::Assign(TSNode target, const Value& v, Frame& f) {
  if (Is(target, "identifier")) {
    std::string name(m_.Text(target));
    (*f.vars)[name] = v;
    return !f.module || BindModuleName(target, name, v, LooksLikeTestClassName(name));
  }
  if (Is(target, "subscript") && IsGlobals(Field(target, "value"), f)) {
    Value key = Expr(Field(target, "subscript"), f);
    if (key.kind != Value::Kind::kStr)
      return Stop(target, "cannot tell which name " + std::string(m_.Text(target)) + " binds");
    return BindModuleName(target, key.text, v, true);
  }
  if (Is(target, "attribute")) {
    // What pytest never reads of a class: its module, file, qualname, doc.
    Value object = Expr(Field(target, "object"), f);
    std::string_view attr = m_.Text(Field(target, "attribute"));
    if (object.kind == Value::Kind::kClass && object.index >= 0 &&
        (attr == "__module__" || attr == "__file__" || attr == "__qualname__" || attr == "__doc__"))
      return true;
  }
  if (Is(target, "pattern_list") || Is(target, "tuple_pattern") || Is(target, "list_pattern")) {
    std::vector<TSNode> names = NamedChildren(target);
    if (v.kind != Value::Kind::kList || v.items.size() != names.size())
      return Stop(target, "cannot unpack `" + v.text + "` into " + std::string(m_.Text(target)));
    for (size_t i = 0; i < names.size(); ++i)
      if (!Assign(names[i], v.items[i], f)) return false;
    return true;
  }
  return Stop(target, "cannot follow assignment to " + std::string(m_.Text(target)));
}

bool SetattrRunner::IsGlobals(TSNode call, const Frame& f) const {
  if (!Is(call, "call")) return false;
  TSNode callee = Field(call, "function");
  TSNode args = Field(call, "arguments");
  return Is(callee, "identifier") && m_.Text(callee) == "globals" && !f.vars->count("globals") &&
         !model_.imports.count("globals") && !model_.assignments.count("globals") &&
         !model_.function_index.count("globals") && Is(args, "argument_list") &&
         ts_node_named_child_count(args) == 0;
}

bool SetattrRunner::Refuse(TSNode at, const std::string& what) {
  refused_ = true;
  return Stop(at, what + " in a function called by an expression");
}

bool SetattrRunner::BindModuleName(TSNode at, const std::string& name, const Value& v,
                                   bool strict) {
  if (!effects_ || !host_) return Refuse(at, "a module name bound");
  if (v.kind == Value::Kind::kClass && v.index >= 0) {
    host_->BindName(name, v.index);
    return true;
  }
  if (v.kind == Value::Kind::kCallable && name.rfind("test", 0) == 0)
    return Stop(at, "a test function bound at module level as `" + name + "` is not followed");
  // Values that are no class: data, a function.
  bool no_class = v.known() && v.kind != Value::Kind::kClass && v.kind != Value::Kind::kObject;
  if (strict && !no_class) {
    std::string what = Is(at, "call") ? "`" + std::string(m_.Text(Field(at, "function"))) + "(...)`"
                                      : "`" + std::string(m_.Text(at)) + "`";
    return Stop(at,
                "class `" + name + "` made by " + what + " is not followed: its tests are missing");
  }
  host_->BindName(name, -1);
  return true;
}

bool SetattrRunner::EvaluateArguments(TSNode call, Frame& f, EvaluatedArgs* out) {
  TSNode list = Field(call, "arguments");
  if (!Is(list, "argument_list"))
    return Stop(call, "cannot follow the arguments of " + std::string(m_.Text(call)));
  for (TSNode a : NamedChildren(list)) {
    if (Is(a, "comment")) continue;
    if (Is(a, "dictionary_splat"))
      return Stop(a, "cannot follow the arguments of " + std::string(m_.Text(call)));
    if (Is(a, "list_splat")) {
      out->splat = true;
    } else if (Is(a, "keyword_argument")) {
      TSNode value = Field(a, "value");
      out->keyword[std::string(m_.Text(Field(a, "name")))] = {value, Expr(value, f)};
    } else if (!out->splat) {
      out->positional.push_back({a, Expr(a, f)});
    }
  }
  return true;
}

bool SetattrRunner::MakesClass(TSNode call, Frame& f, Value* out) {
  TSNode callee = Field(call, "function");
  if (Is(callee, "identifier") && f.vars->count(std::string(m_.Text(callee)))) return false;
  TSNode list = Field(call, "arguments");
  // type(x) is x's type; type(name, bases, namespace) makes a class.
  bool type =
      IsBuiltinType(callee) && Is(list, "argument_list") && ts_node_named_child_count(list) == 3;
  if (!type && ev_.QualifiedName(callee) != kMakeTestClsWithPatches) return false;
  *out = Value::Unknown(std::string(m_.Text(call)));
  if (!effects_ || !host_) return !Refuse(call, "a class made");
  EvaluatedArgs args;
  if (!EvaluateArguments(call, f, &args)) return true;
  std::string why;
  int made = -1;
  if (type) {
    // A base is a class of the module, or one imported (`TestCase`).
    auto base = [&](TSNode node, const Value& v, ClassRef* ref) {
      if (v.kind == Value::Kind::kClass && v.index >= 0) {
        ref->index = v.index;
        return true;
      }
      TSNode root = node;
      while (Is(root, "attribute")) root = Field(root, "object");
      std::string name(m_.Text(root));
      if (!Is(root, "identifier") || f.vars->count(name) || !model_.imports.count(name) ||
          model_.assignments.count(name))
        return false;
      ref->qualified = ev_.QualifiedName(node);
      return true;
    };
    TypeCall t;
    if (ReadTypeCall(args, ev_, base, &t, &why)) made = host_->MakeClass(t);
  } else {
    PatchedClassCall p;
    if (ReadPatchedClassCall(args, ev_, &p, &why)) made = host_->MakePatchedClass(p);
  }
  if (made < 0)
    return !Stop(call, "cannot follow `" + std::string(m_.Text(callee)) + "(...)`: " + why);
  out->kind = Value::Kind::kClass;
  out->index = made;
  out->text = host_->ClassName(made);
  return true;
}

SetattrRunner::Flow SetattrRunner::ModuleClass(TSNode def) {
  Stop(def, "class `" + std::string(m_.Text(Field(def, "name"))) +
                "` defined inside a top-level block is not followed");
  return Flow::kStop;
}

SetattrRunner::Flow SetattrRunner::Statement1(TSNode s, Frame& f) {
  if (++steps_ > kMaxSteps) {
    Stop(s, "gave up after " + std::to_string(kMaxSteps) + " statements");
    return Flow::kStop;
  }
  std::string_view type = ts_node_type(s);
  if (type == "comment" || type == "pass_statement" || type == "assert_statement")
    return Flow::kNext;
  if (type == "expression_statement") {
    if (ts_node_named_child_count(s) != 1) return Flow::kNext;
    TSNode e = ts_node_named_child(s, 0);
    if (Is(e, "assignment")) {
      TSNode right = Field(e, "right");
      if (ts_node_is_null(right)) return Flow::kNext;  // annotation only
      return Assign(Field(e, "left"), Expr(right, f), f) ? Flow::kNext : Flow::kStop;
    }
    std::string callee = Is(e, "call") ? ev_.QualifiedName(Field(e, "function")) : "";
    if (LastComponentView(callee) == "instantiate_device_type_tests" ||
        LastComponentView(callee) == "instantiate_parametrized_tests") {
      Stop(e, std::string(LastComponentView(callee)) + " in import-time code is not followed");
      return Flow::kStop;
    }
    if (callee == "setattr") {
      if (!effects_ || !host_) {
        Refuse(e, "setattr");
        return Flow::kStop;
      }
      TSNode list = Field(e, "arguments");
      if (ts_node_named_child_count(list) != 3) {
        Stop(e, "cannot follow " + std::string(m_.Text(e)));
        return Flow::kStop;
      }
      Value cls = Expr(ts_node_named_child(list, 0), f);
      Value name = Expr(ts_node_named_child(list, 1), f);
      Value fn = Expr(ts_node_named_child(list, 2), f);
      if (cls.kind != Value::Kind::kClass || cls.index < 0 || name.kind != Value::Kind::kStr) {
        Stop(e, "cannot tell what " + std::string(m_.Text(e)) + " sets");
        return Flow::kStop;
      }
      if (name.text.rfind("test", 0) != 0) return Flow::kNext;  // not a test
      if (fn.kind != Value::Kind::kCallable ||
          !(Is(fn.node, "function_definition") || Is(fn.node, "lambda"))) {
        Stop(e, "cannot tell which function " + std::string(m_.Text(e)) + " adds");
        return Flow::kStop;
      }
      TSNode parent = ts_node_parent(fn.node);
      defs_.push_back(
          ReadFunctionDef(m_, fn.node, Is(parent, "decorated_definition") ? parent : fn.node));
      // unittest and pytest name the test by its attribute.
      defs_.back().name = name.text;
      const Evaluator::Locals* scope = fn.index >= 0 ? &scopes_[fn.index] : nullptr;
      host_->AddTest({cls.index, name.text, &defs_.back(), scope});
      return Flow::kNext;
    }
    if (Is(e, "call") || Is(e, "string")) {
      Expr(e, f);  // a docstring, or a call run for its effects
      return Flow::kNext;
    }
    return Flow::kNext;
  }
  if (type == "function_definition" || type == "decorated_definition") {
    TSNode def = type == "decorated_definition" ? Field(s, "definition") : s;
    if (!Is(def, "function_definition")) {
      if (f.module) return ModuleClass(def);
      // A nested class: an object only (UnknownType in test bodies).
      Value o;
      o.kind = Value::Kind::kObject;
      o.b = true;
      (*f.vars)[std::string(m_.Text(Field(def, "name")))] = o;
      return Flow::kNext;
    }
    // The decorators run now, in this frame: keep a copy of its names for
    // them; calls see the frame itself.
    Value fn;
    fn.kind = Value::Kind::kCallable;
    fn.node = def;
    fn.text = std::string(m_.Text(Field(def, "name")));
    fn.index = static_cast<int>(scopes_.size());
    scopes_.push_back(*f.vars);
    closures_.push_back(f.vars);
    (*f.vars)[fn.text] = fn;
    if (f.module && !BindModuleName(def, fn.text, fn, false)) return Flow::kStop;
    return Flow::kNext;
  }
  if (type == "class_definition") {
    if (f.module) return ModuleClass(s);
    Value o;
    o.kind = Value::Kind::kObject;
    o.b = true;
    (*f.vars)[std::string(m_.Text(Field(s, "name")))] = o;
    return Flow::kNext;
  }
  if (type == "return_statement") {
    f.ret = ts_node_named_child_count(s) ? Expr(ts_node_named_child(s, 0), f) : Value::None();
    return Flow::kReturn;
  }
  if (type == "for_statement") {
    if (!ts_node_is_null(Field(s, "alternative"))) {
      Stop(s, "cannot follow for/else");
      return Flow::kStop;
    }
    Value seq = Expr(Field(s, "right"), f);
    if (seq.kind != Value::Kind::kList) {
      Stop(s, "cannot evaluate loop over `" + std::string(m_.Text(Field(s, "right"))) + "`");
      return Flow::kStop;
    }
    for (const Value& item : seq.items) {
      if (!Assign(Field(s, "left"), item, f)) return Flow::kStop;
      Flow flow = Block(Field(s, "body"), f);
      if (flow != Flow::kNext) return flow;
    }
    return Flow::kNext;
  }
  if (type == "if_statement") {
    // if / elif... / else, in order.
    std::vector<std::pair<TSNode, TSNode>> arms{{Field(s, "condition"), Field(s, "consequence")}};
    for (TSNode ch : NamedChildren(s)) {
      if (Is(ch, "elif_clause"))
        arms.push_back({Field(ch, "condition"), Field(ch, "consequence")});
      else if (Is(ch, "else_clause"))
        arms.push_back({TSNode{}, Field(ch, "body")});
    }
    for (const auto& [cond, body] : arms) {
      bool take = true;
      if (!ts_node_is_null(cond)) {
        bool known;
        take = ev_.Truthy(Expr(cond, f), &known);
        if (!known) {
          Stop(cond, "cannot evaluate condition `" + std::string(m_.Text(cond)) + "`");
          return Flow::kStop;
        }
      }
      if (take) return Block(body, f);
    }
    return Flow::kNext;
  }
  Stop(s, std::string("cannot follow a ") + std::string(type) + " here");
  return Flow::kStop;
}

Value SetattrRunner::Expr(TSNode e, Frame& f) {
  if (Is(e, "identifier")) {
    std::string name(m_.Text(e));
    if (auto it = f.vars->find(name); it != f.vars->end()) return it->second;
    int cls = host_ ? host_->ClassBound(name) : -1;
    if (cls >= 0) {
      Value c = Value::Str(host_->ClassName(cls));
      c.kind = Value::Kind::kClass;
      c.index = cls;
      return c;
    }
  }
  if (Is(e, "attribute") && m_.Text(Field(e, "attribute")) == "__name__" && host_) {
    Value object = Expr(Field(e, "object"), f);
    if (object.kind == Value::Kind::kClass && object.index >= 0)
      return Value::Str(host_->ClassName(object.index));
  }
  if (Is(e, "parenthesized_expression") && ts_node_named_child_count(e) == 1)
    return Expr(ts_node_named_child(e, 0), f);
  // A tuple of classes (type()'s bases) holds the module's classes.
  if (Is(e, "tuple") || Is(e, "list")) {
    std::vector<Value> items;
    for (TSNode item : NamedChildren(e)) {
      if (Is(item, "comment")) continue;
      if (Is(item, "list_splat")) return ev_.Eval(e, f.vars.get());
      items.push_back(Expr(item, f));
    }
    return Value::List(std::move(items));
  }
  if (Is(e, "call")) {
    Value made;
    if (MakesClass(e, f, &made)) return made;
    Value fn = Expr(Field(e, "function"), f);
    bool ours = fn.kind == Value::Kind::kCallable && Is(fn.node, "function_definition");
    if (ours) {
      EvaluatedArgs args;
      if (!EvaluateArguments(e, f, &args)) return Value::Unknown(std::string(m_.Text(e)));
      return CallFunction(fn, args, e);
    }
  }
  return ev_.Eval(e, f.vars.get());
}

Value SetattrRunner::CallFunction(const Value& fn, const EvaluatedArgs& args, TSNode at) {
  Value unknown = Value::Unknown(std::string(m_.Text(at)));
  if (fn.kind != Value::Kind::kCallable || !Is(fn.node, "function_definition")) return unknown;
  auto cannot = [&](const std::string& why) {
    Stop(at, "cannot follow " + std::string(m_.Text(at)) + ": " + why);
    return unknown;
  };
  if (depth_ >= kMaxCallDepth) return cannot("calls nest too deep");
  if (args.splat) return cannot("cannot tell which arguments `*` passes");
  Frame callee;
  if (fn.index >= 0) *callee.vars = *closures_[fn.index];
  TSNode params = Field(fn.node, "parameters");
  size_t k = 0, keywords = 0;
  bool keyword_only = false;  // after `*rest`
  for (TSNode p : NamedChildren(params)) {
    if (Is(p, "comment")) continue;
    if (Is(p, "list_splat_pattern") && ts_node_named_child_count(p) == 1 && !keyword_only) {
      std::vector<Value> rest;
      for (; k < args.positional.size(); ++k) rest.push_back(args.positional[k].second);
      (*callee.vars)[std::string(m_.Text(ts_node_named_child(p, 0)))] =
          Value::List(std::move(rest));
      keyword_only = true;
      continue;
    }
    bool with_default = Is(p, "default_parameter");
    if (!Is(p, "identifier") && !with_default) return cannot("its parameters are not followed");
    std::string name(m_.Text(with_default ? Field(p, "name") : p));
    auto kw = args.keyword.find(name);
    bool positional = !keyword_only && k < args.positional.size();
    if (positional && kw != args.keyword.end()) return cannot("`" + name + "` given twice");
    if (positional) {
      (*callee.vars)[name] = args.positional[k++].second;
    } else if (kw != args.keyword.end()) {
      (*callee.vars)[name] = kw->second.second;
      ++keywords;
    } else if (with_default) {
      (*callee.vars)[name] = ev_.Eval(Field(p, "value"));
    } else {
      return cannot("`" + name + "` is not given");
    }
  }
  if (k != args.positional.size() || keywords != args.keyword.size())
    return cannot("more arguments than parameters");
  TSNode body = m_.FunctionBody(fn.node);
  if (ts_node_is_null(body)) return unknown;
  ++depth_;
  Flow flow = Block(body, callee);
  --depth_;
  if (flow == Flow::kStop) return Value::Unknown(std::string(m_.Text(at)));
  return flow == Flow::kReturn ? callee.ret : Value::None();
}

}  // namespace testmap::python
