// Comprehension filters compiled once: `[op for op in op_db if op.name in
// (...)]` is the commonest decorator argument in PyTorch's tests, and
// interpreting its condition by walking the tree once per OpInfo (copying
// the constant tuple each time) dominated scan time. The condition and body
// compile against the loop variable into a small tree that runs per item.
#include "analyzers/python/expression_evaluator.h"

namespace testmap::python {

// A comprehension's body or condition compiled once against its loop
// variable, so filtering op_db's ~1000 OpInfos does not walk the tree (and
// copy the constant operands) once per item.
struct Evaluator::Compiled {
  enum class Kind { kConst, kVar, kAttr, kCompare, kAnd, kOr, kNot } kind = Kind::kConst;
  Value constant;
  std::string text;  // attribute name or comparison operator
  std::vector<Compiled> kids;
};

bool Evaluator::Compile(TSNode n, const std::string& var, Compiled* out) {
  std::string_view type = ts_node_type(n);
  using K = Compiled::Kind;
  if (type == "parenthesized_expression" && ts_node_named_child_count(n) == 1)
    return Compile(ts_node_named_child(n, 0), var, out);
  if (type == "identifier" && module_.Text(n) == var) {
    out->kind = K::kVar;
    return true;
  }
  if (type == "attribute") {
    Compiled object;
    if (Compile(Field(n, "object"), var, &object) && object.kind != K::kConst) {
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
    return Compile(ts_node_named_child(n, 0), var, &out->kids[0]) &&
           Compile(ts_node_named_child(n, 1), var, &out->kids[1]);
  }
  if (type == "boolean_operator") {
    out->kind = module_.Text(Field(n, "operator")) == "and" ? K::kAnd : K::kOr;
    out->kids.resize(2);
    return Compile(Field(n, "left"), var, &out->kids[0]) &&
           Compile(Field(n, "right"), var, &out->kids[1]);
  }
  if (type == "not_operator") {
    out->kind = K::kNot;
    out->kids.resize(1);
    return Compile(Field(n, "argument"), var, &out->kids[0]);
  }
  // Anything else must not involve the loop variable: a constant.
  if (MentionsName(n, var)) return false;
  out->kind = K::kConst;
  out->constant = Eval(n, nullptr);
  return true;
}

bool Evaluator::MentionsName(TSNode n, const std::string& name) const {
  if (Is(n, "identifier")) return module_.Text(n) == name;
  for (uint32_t i = 0, c = ts_node_named_child_count(n); i < c; ++i)
    if (MentionsName(ts_node_named_child(n, i), name)) return true;
  return false;
}

Value Evaluator::Run(const Compiled& c, const Value& item) {
  using K = Compiled::Kind;
  switch (c.kind) {
    case K::kConst:
      return c.constant;
    case K::kVar:
      return item;
    case K::kAttr:
      return AttributeOf(Run(c.kids[0], item), c.text);
    case K::kNot: {
      bool known;
      bool t = Truthy(Run(c.kids[0], item), &known);
      return known ? Value::Bool(!t) : Value::Unknown("not");
    }
    case K::kAnd:
    case K::kOr: {
      Value left = Run(c.kids[0], item);
      bool known;
      bool t = Truthy(left, &known);
      if (!known) return Value::Unknown("bool");
      if ((c.kind == K::kAnd) != t) return left;
      return Run(c.kids[1], item);
    }
    case K::kCompare: {
      Value left = Run(c.kids[0], item);
      // A constant operand (the usual tuple of names) is used in place, not copied.
      Value computed;
      const Value* right = &c.kids[1].constant;
      if (c.kids[1].kind != K::kConst) right = &(computed = Run(c.kids[1], item));
      bool known;
      bool result = Compare(c.text, left, *right, &known);
      return known ? Value::Bool(result) : Value::Unknown(c.text);
    }
  }
  return Value::Unknown("");
}

// `[x for x in LIST if COND...]` with no enclosing locals: the body and
// conditions compiled once, LIST walked by snapshot index when it is one of
// torch's OpInfo/ModuleInfo lists. False when the shape is not supported
// (the caller then interprets the comprehension).
bool Evaluator::EvalCompiledComprehension(TSNode n, TSNode body, const std::vector<TSNode>& clauses,
                                          Value* result) {
  std::vector<Value> out;
  if (!clauses.empty() && Is(clauses[0], "for_in_clause") &&
      Is(Field(clauses[0], "left"), "identifier")) {
    std::string var = Text(Field(clauses[0], "left"));
    std::vector<Compiled> conds(clauses.size() - 1);
    Compiled compiled_body;
    bool compiled = Compile(body, var, &compiled_body);
    for (size_t k = 1; compiled && k < clauses.size(); ++k)
      compiled = Is(clauses[k], "if_clause") &&
                 Compile(ts_node_named_child(clauses[k], 0), var, &conds[k - 1]);
    TSNode iterable = Field(clauses[0], "right");
    auto keep_item = [&](const Value& item, bool* known) {
      *known = true;
      for (const Compiled& cond : conds) {
        bool keep = Truthy(Run(cond, item), known);
        if (!*known || !keep) return false;
      }
      return true;
    };
    // Over op_db or module_db: walk the snapshot's indices rather than
    // copying a thousand OpInfo values per file.
    Value::Kind kind;
    const std::vector<int>* indices = nullptr;
    if (compiled && SnapshotList(iterable, &kind, &indices)) {
      const torch_snapshot::TorchSnapshot* s = snapshot();
      Value item;
      item.kind = kind;
      for (int i : *indices) {
        item.index = i;
        item.text.clear();
        bool known;
        bool keep = keep_item(item, &known);
        if (!known) {
          *result = Value::Unknown(Text(n));
          return true;
        }
        if (!keep) continue;
        item.text =
            kind == Value::Kind::kOpInfo ? s->ops[i].formatted_name : s->modules[i].formatted_name;
        out.push_back(Run(compiled_body, item));
      }
      *result = Value::List(std::move(out));
      return true;
    }
    Value seq = compiled ? Eval(iterable, nullptr) : Value();
    if (compiled && seq.kind == Value::Kind::kList) {
      for (const Value& item : seq.items) {
        bool known;
        bool keep = keep_item(item, &known);
        if (!known) {
          *result = Value::Unknown(Text(n));
          return true;
        }
        if (keep) out.push_back(Run(compiled_body, item));
      }
      *result = Value::List(std::move(out));
      return true;
    }
  }
  return false;
}

}  // namespace testmap::python
