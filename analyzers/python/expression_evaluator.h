// Static evaluation of the expressions that decide test names: decorator
// arguments (`@dtypes(*all_types_and(torch.half))`, `@parametrize("x",
// [subtest(1, name="one")])`, `@ops([op for op in op_db if op.name ==
// "add"])`), module-level constants they refer to, and simple callables
// (`name_fn=lambda x: f"n{x}"`). Nothing is executed: what cannot be known
// evaluates to Value::kUnknown with its source text.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "analyzers/python/module_model.h"
#include "analyzers/python/python_parser.h"
#include "analyzers/python/python_value.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::python {

// Returns the torch snapshot, loading it on first use; null if unavailable.
using SnapshotSource = std::function<const torch_snapshot::TorchSnapshot*()>;

class Evaluator {
 public:
  using Locals = std::map<std::string, Value>;

  Evaluator(const ParsedModule& module, const ModuleModel& model, SnapshotSource snapshot);

  Value Eval(TSNode expr, const Locals* locals = nullptr);

  // The dotted name an expression refers to, through the module's imports:
  // `parametrize` -> `torch.testing._internal.common_utils.parametrize`,
  // `pytest.mark.parametrize` stays as is. Empty for non-name expressions.
  std::string QualifiedName(TSNode expr) const;

  // Applies an interpretable callable (lambda, one-line def, str/repr).
  Value Call(const Value& fn, const std::vector<Value>& args);

  // The snapshot, when something needs torch's metadata; null if missing.
  const torch_snapshot::TorchSnapshot* snapshot();
  // Set when an expression needed the snapshot and none was available.
  bool snapshot_missing() const { return snapshot_missing_; }

  // Positional and keyword arguments of a call, with `*x` splats expanded.
  struct Args {
    std::vector<Value> positional;
    std::map<std::string, TSNode> keyword_nodes;
    std::map<std::string, Value> keyword;
  };
  Args EvalArgs(TSNode call, const Locals* locals = nullptr);

  std::string Text(TSNode n) const { return std::string(module_.Text(n)); }

 private:
  Value EvalUncached(TSNode expr, const Locals* locals);
  Value AttributeOf(const Value& object, const std::string& attr);
  // The snapshot's OpInfo/ModuleInfo list an expression names (`op_db`).
  bool SnapshotList(TSNode n, Value::Kind* kind, const std::vector<int>** indices);
  bool SnapshotListNamed(const std::string& qualified, Value::Kind* kind,
                         const std::vector<int>** indices);
  struct Compiled;
  bool Compile(TSNode n, const std::string& var, Compiled* out);
  bool MentionsName(TSNode n, const std::string& name) const;
  Value Run(const Compiled& c, const Value& item);
  bool EvalCompiledComprehension(TSNode n, TSNode body, const std::vector<TSNode>& clauses,
                                 Value* result);
  Value EvalName(const std::string& name, TSNode node, const Locals* locals);
  Value EvalAttribute(TSNode node, const Locals* locals);
  Value EvalCall(TSNode node, const Locals* locals);
  Value EvalString(TSNode node, const Locals* locals);
  Value EvalComprehension(TSNode node, const Locals* locals);
  Value EvalBinary(TSNode node, const Locals* locals);
  Value EvalComparison(TSNode node, const Locals* locals);
  Value EvalSequence(TSNode node, const Locals* locals);
  Value EvalQualified(const std::string& qualified, TSNode node);
  bool Truthy(const Value& v, bool* known);

  const ParsedModule& module_;
  const ModuleModel& model_;
  SnapshotSource snapshot_source_;
  const torch_snapshot::TorchSnapshot* snapshot_ = nullptr;
  bool snapshot_loaded_ = false, snapshot_missing_ = false;
  std::set<std::string> evaluating_;  // guards against `a = a + 1` cycles
  int depth_ = 0;
  // Values of expressions that read no local name, by node: decorator
  // arguments and module constants are evaluated once per file, and so is
  // the constant part of a comprehension's condition (`op.name in (...)`).
  std::unordered_map<const void*, Value> memo_;
  uint64_t local_reads_ = 0;
};

// Python equality of two known values (lists compared item by item).
bool PythonEquals(const Value& a, const Value& b, bool* known);

// `left OP right` for OP in ==, !=, is, is not, in, not in, <, <=, >, >=.
bool Compare(const std::string& op, const Value& left, const Value& right, bool* known);

}  // namespace testmap::python
