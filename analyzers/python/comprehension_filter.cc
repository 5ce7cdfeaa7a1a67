// Comprehension filters compiled once: `[op for op in op_db if op.name in
// (...)]` is the commonest decorator argument in PyTorch's tests, and
// interpreting its condition by walking the tree once per OpInfo (copying
// the constant tuple each time) dominated scan time. The condition and body
// compile against the loop variable into a small tree that runs per item.
#include "analyzers/python/expression_evaluator.h"

namespace testmap::python {

// A comprehension's body or condition, or a one-parameter lambda's body,
// compiled once against its loop variable, so filtering op_db's ~1000
// OpInfos does not walk the tree (and copy the constant operands) once per
// item.
//
// Two modes. The first (`exact` false) is the one module-level
// comprehensions of attributes and comparisons have always used. The
// second (`exact` true) stands in for the interpreter, where it would
// otherwise run, and gives what it gives: unknowns carry the expression's
// text, constants are evaluated when first reached (as short-circuiting
// reaches them), and each read of the loop variable counts as a local read
// (so the enclosing expression is not memoized, as with Locals).
struct Evaluator::Compiled {
  enum class Kind { kConst, kVar, kAttr, kCompare, kAnd, kOr, kNot, kCall } kind = Kind::kConst;
  bool exact = false;
  bool evaluated = false;  // kConst in exact mode: `constant` holds Eval(node)
  bool builtin = false;    // kCall: ApplyCall's by_name
  Value constant;
  TSNode node{};    // the expression; for kCall, the call
  TSNode callee{};  // kCall: the function expression (reads no local)
  // Exact mode: the locals the interpreter would have (a nested
  // comprehension evaluates as under locals, not as at module level).
  const Locals* scope = nullptr;
  std::string text;  // attribute name, comparison operator, callee's qualified name
  std::vector<Compiled> kids;
  // kCall: the arguments, reused from item to item (constants are set once,
  // the loop variable copied into place) rather than allocated per call.
  Args args;
  bool args_set = false;
};

bool Evaluator::Compile(TSNode n, const std::string& var, bool exact, const Locals* scope,
                        Compiled* out) {
  std::string_view type = ts_node_type(n);
  using K = Compiled::Kind;
  out->exact = exact;
  out->node = n;
  out->scope = scope;
  if (type == "parenthesized_expression" && ts_node_named_child_count(n) == 1)
    return Compile(ts_node_named_child(n, 0), var, exact, scope, out);
  if (type == "identifier" && module_.Text(n) == var) {
    out->kind = K::kVar;
    return true;
  }
  if (type == "attribute") {
    Compiled object;
    if (Compile(Field(n, "object"), var, exact, scope, &object) && object.kind != K::kConst) {
      out->kind = K::kAttr;
      out->text = Text(Field(n, "attribute"));
      out->kids.push_back(std::move(object));
      return true;
    }
  }
  if (type == "comparison_operator" && ts_node_named_child_count(n) == 2 &&
      ts_node_child_count(n) == 3) {
    out->kind = K::kCompare;
    out->text = std::string(module_.Text(ts_node_child(n, 1)));
    out->kids.resize(2);
    return Compile(ts_node_named_child(n, 0), var, exact, scope, &out->kids[0]) &&
           Compile(ts_node_named_child(n, 1), var, exact, scope, &out->kids[1]);
  }
  if (type == "boolean_operator") {
    out->kind = module_.Text(Field(n, "operator")) == "and" ? K::kAnd : K::kOr;
    out->kids.resize(2);
    return Compile(Field(n, "left"), var, exact, scope, &out->kids[0]) &&
           Compile(Field(n, "right"), var, exact, scope, &out->kids[1]);
  }
  if (type == "not_operator") {
    out->kind = K::kNot;
    out->kids.resize(1);
    return Compile(Field(n, "argument"), var, exact, scope, &out->kids[0]);
  }
  // `isinstance(op, UnaryUfuncInfo)`, `has_reduction_tag(op)`: a callee
  // that reads no local, with positional arguments, dispatched as EvalCall
  // dispatches it.
  auto reads_local = [&](TSNode e) {
    return MentionsName(e, var) ||
           (scope && Mentions(e, [&](const std::string& name) { return scope->count(name) > 0; }));
  };
  if (exact && type == "call" && MentionsName(n, var)) {
    TSNode callee = Field(n, "function");
    TSNode list = Field(n, "arguments");
    if (ts_node_is_null(list) || !Is(list, "argument_list") || reads_local(callee)) return false;
    for (TSNode a : NamedChildren(list)) {
      if (Is(a, "comment")) continue;
      if (Is(a, "keyword_argument") || Is(a, "list_splat") || Is(a, "dictionary_splat"))
        return false;
      out->kids.emplace_back();
      if (!Compile(a, var, exact, scope, &out->kids.back())) return false;
    }
    out->kind = K::kCall;
    out->callee = callee;
    out->text = QualifiedName(callee);
    out->builtin = !out->text.empty() && !model_.function_index.count(out->text);
    return true;
  }
  // Anything else must not involve the loop variable (nor, in exact mode,
  // another local): a constant.
  if (exact ? reads_local(n) : MentionsName(n, var)) return false;
  out->kind = K::kConst;
  if (!exact) out->constant = Eval(n, nullptr);
  return true;
}

bool Evaluator::MentionsName(TSNode n, const std::string& name) const {
  return AnyNode(n, [&](TSNode d) { return Is(d, "identifier") && module_.Text(d) == name; });
}

// The interpreter evaluates what does not read the loop variable with
// Locals holding it (and any enclosing locals): an empty map stands for them.
const Evaluator::Locals* Evaluator::InterpreterScope(const Compiled& c) {
  static const Locals kNoOtherLocals;
  return c.scope ? c.scope : &kNoOtherLocals;
}

const Value& Evaluator::ReadVar(const Compiled& c, const Value& item) {
  if (c.exact) ++local_reads_;
  return item;
}

Value Evaluator::Run(Compiled& c, const Value& item) {
  using K = Compiled::Kind;
  // What the interpreter's unknown says: the expression, in exact mode.
  auto unknown = [&](const char* legacy) {
    return Value::Unknown(c.exact ? Text(c.node) : std::string(legacy));
  };
  switch (c.kind) {
    case K::kConst:
      if (c.exact && !c.evaluated) {
        c.constant = Eval(c.node, InterpreterScope(c));
        c.evaluated = true;
      }
      return c.constant;
    case K::kVar:
      return ReadVar(c, item);
    case K::kAttr: {
      // `op.name`: the item itself, not a copy of it.
      Value v = c.kids[0].kind == K::kVar ? AttributeOf(ReadVar(c.kids[0], item), c.text)
                                          : AttributeOf(Run(c.kids[0], item), c.text);
      if (!c.exact || v.known()) return v;
      // EvalAttribute: `op.x` is unknown as written; `op.x.y` is tried as a
      // dotted name too.
      if (c.kids[0].kind == K::kVar) return Value::Unknown(Text(c.node));
      std::string q = QualifiedName(c.node);
      return q.empty() ? Value::Unknown(Text(c.node)) : EvalQualified(q, c.node);
    }
    case K::kNot: {
      bool known;
      bool t = Truthy(Run(c.kids[0], item), &known);
      return known ? Value::Bool(!t) : unknown("not");
    }
    case K::kAnd:
    case K::kOr: {
      Value left = Run(c.kids[0], item);
      bool known;
      bool t = Truthy(left, &known);
      if (!known) return unknown("bool");
      if ((c.kind == K::kAnd) != t) return left;
      return Run(c.kids[1], item);
    }
    case K::kCompare: {
      Value left = Run(c.kids[0], item);
      // A constant operand (the usual tuple of names) is used in place, not copied.
      Value computed;
      Compiled& r = c.kids[1];
      const Value* right = &r.constant;
      if (r.kind != K::kConst || (r.exact && !r.evaluated)) right = &(computed = Run(r, item));
      bool known;
      bool result = Compare(c.text, left, *right, &known);
      return known ? Value::Bool(result) : unknown(c.text.c_str());
    }
    case K::kCall: {
      Args& args = c.args;
      args.positional.resize(c.kids.size());
      for (size_t i = 0; i < c.kids.size(); ++i) {
        Compiled& k = c.kids[i];
        if (k.kind == K::kVar)
          args.positional[i] = ReadVar(k, item);
        else if (k.kind != K::kConst || !c.args_set)
          args.positional[i] = Run(k, item);
      }
      c.args_set = true;
      return ApplyCall(c.node, c.callee, c.text, c.builtin, args, InterpreterScope(c));
    }
  }
  return Value::Unknown("");
}

// `[x for x in LIST if COND...]`: the body and conditions compiled once,
// LIST walked by snapshot index when it is one of torch's OpInfo/ModuleInfo
// lists. At module level the attribute-and-comparison shapes compile as
// they always have; calls (and, under `locals`, any comprehension whose body
// and conditions read no local name) compile in exact mode. False when the
// shape is not supported (the caller then interprets the comprehension).
bool Evaluator::EvalCompiledComprehension(TSNode n, TSNode body, const std::vector<TSNode>& clauses,
                                          const Locals* locals, Value* result) {
  if (clauses.empty() || !Is(clauses[0], "for_in_clause") ||
      !Is(Field(clauses[0], "left"), "identifier"))
    return false;
  std::string var = Text(Field(clauses[0], "left"));
  std::vector<Compiled> conds;
  Compiled compiled_body;
  auto compile = [&](bool exact) {
    conds.assign(clauses.size() - 1, Compiled{});
    compiled_body = Compiled{};
    bool ok = Compile(body, var, exact, locals, &compiled_body);
    for (size_t k = 1; ok && k < clauses.size(); ++k)
      ok = Is(clauses[k], "if_clause") &&
           Compile(ts_node_named_child(clauses[k], 0), var, exact, locals, &conds[k - 1]);
    return ok;
  };
  bool exact = locals != nullptr || !compile(false);
  if (exact && !compile(true)) return false;
  TSNode iterable = Field(clauses[0], "right");
  auto keep_item = [&](const Value& item, bool* known) {
    *known = true;
    for (Compiled& cond : conds) {
      bool keep = Truthy(Run(cond, item), known);
      if (!*known || !keep) return false;
    }
    return true;
  };
  std::vector<Value> out;
  // The interpreter gives up past kMaxItems.
  auto full = [&] { return exact && out.size() > kMaxItems; };
  // Over op_db or module_db: walk the snapshot's indices rather than
  // copying a thousand OpInfo values per file.
  Value::Kind kind;
  const std::vector<int>* indices = nullptr;
  bool local_iterable = locals && Mentions(iterable, [&](const std::string& name) {
                          return locals->count(name) > 0;
                        });
  if (!local_iterable && SnapshotList(iterable, &kind, &indices)) {
    const torch_snapshot::TorchSnapshot* s = snapshot();
    Value item;
    item.kind = kind;
    auto name = [&](int i) -> const std::string& {
      return kind == Value::Kind::kOpInfo ? s->ops[i].formatted_name : s->modules[i].formatted_name;
    };
    for (int i : *indices) {
      item.index = i;
      // The interpreter's items carry their names; main's compiled
      // conditions never read them.
      if (exact)
        item.text = name(i);
      else
        item.text.clear();
      bool known;
      bool keep = keep_item(item, &known);
      if (!known) {
        *result = Value::Unknown(Text(n));
        return true;
      }
      if (!keep) continue;
      item.text = name(i);
      out.push_back(Run(compiled_body, item));
      if (full()) {
        *result = Value::Unknown(Text(n));
        return true;
      }
    }
    *result = Value::List(std::move(out));
    return true;
  }
  Value seq = Eval(iterable, exact ? locals : nullptr);
  if (seq.kind != Value::Kind::kList) return false;
  for (const Value& item : seq.items) {
    bool known;
    bool keep = keep_item(item, &known);
    if (!known) {
      *result = Value::Unknown(Text(n));
      return true;
    }
    if (keep) out.push_back(Run(compiled_body, item));
    if (full()) {
      *result = Value::Unknown(Text(n));
      return true;
    }
  }
  *result = Value::List(std::move(out));
  return true;
}

// filter(lambda op: COND, LIST): Call would bind `op` in a fresh Locals and
// walk COND's tree once per item.
bool Evaluator::CompiledFilter(const Value& fn, const std::vector<Value>& items,
                               std::vector<Value>* kept, bool* known) {
  if (fn.kind != Value::Kind::kCallable || !Is(fn.node, "lambda")) return false;
  TSNode params = Field(fn.node, "parameters");
  if (ts_node_is_null(params) || ts_node_named_child_count(params) != 1 ||
      !Is(ts_node_named_child(params, 0), "identifier"))
    return false;
  Compiled cond;
  if (!Compile(Field(fn.node, "body"), Text(ts_node_named_child(params, 0)), true, nullptr, &cond))
    return false;
  for (const Value& item : items) {
    bool keep = Truthy(Run(cond, item), known);
    if (!*known) return true;
    if (keep) kept->push_back(item);
  }
  *known = true;
  return true;
}

}  // namespace testmap::python
