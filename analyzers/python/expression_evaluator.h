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
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzers/python/module_model.h"
#include "analyzers/python/python_parser.h"
#include "analyzers/python/python_value.h"
#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::python {

// Returns the torch snapshot, loading it on first use; null if unavailable.
using SnapshotSource = std::function<const torch_snapshot::TorchSnapshot*()>;

// The last component of a dotted name: `torch.float32` -> `float32`.
std::string LastComponent(const std::string& dotted);
// The same as a view into `dotted`, for where a copy per call shows (filters
// ask isinstance of every OpInfo).
std::string_view LastComponentView(std::string_view dotted);

// Names that torch's test machinery exports, recognized whatever module
// path they were imported through (`torch.testing...`, or a bare name).
bool FromTorchTesting(const std::string& qualified);

class Evaluator {
 public:
  using Locals = std::map<std::string, Value>;
  // Ranges, products and comprehensions larger than this stay unknown
  // rather than exhausting memory.
  static constexpr size_t kMaxItems = 1 << 20;

  Evaluator(const ParsedModule& module, const ModuleModel& model, SnapshotSource snapshot);

  Value Eval(TSNode expr, const Locals* locals = nullptr);

  // The dotted name an expression refers to, through the module's imports:
  // `parametrize` -> `torch.testing._internal.common_utils.parametrize`,
  // `pytest.mark.parametrize` stays as is. Empty for non-name expressions.
  std::string QualifiedName(TSNode expr) const;

  // Applies an interpretable callable (lambda, one-line def, str/repr; a
  // def of several statements through the function runner, if one is set).
  Value Call(const Value& fn, const std::vector<Value>& args);
  // Runs defs whose body is more than `return <expr>` (setattr_tests.h's
  // interpreter): `[op for op in op_db if has_reduction_tag(op)]`.
  using FunctionRunner = std::function<Value(const Value& fn, const std::vector<Value>& args)>;
  void SetFunctionRunner(FunctionRunner runner) { function_runner_ = std::move(runner); }

  // The snapshot, when something needs torch's metadata; null if missing.
  const torch_snapshot::TorchSnapshot* snapshot();
  // Set when an expression needed the snapshot and none was available.
  bool snapshot_missing() const { return snapshot_missing_; }
  // How often an evaluation needed the snapshot and found none: a caller
  // compares it before and after evaluating a decorator to tell an answer
  // that would be wrong without torch's metadata (`dtype0` for
  // torch.float32) from one that does not depend on it.
  uint64_t snapshot_misses() const { return snapshot_misses_; }
  // The snapshot if one is available, without counting a miss: for checks
  // (imports) that are skipped when there is none.
  const torch_snapshot::TorchSnapshot* snapshot_if_available();

  // Positional and keyword arguments of a call, with `*x` splats expanded.
  struct Args {
    std::vector<Value> positional;
    std::map<std::string, TSNode> keyword_nodes;
    std::map<std::string, Value> keyword;
  };
  Args EvalArgs(TSNode call, const Locals* locals = nullptr);

  // A decorator call's target and arguments, through an alias made with
  // functools.partial: `_variant_ops = partial(ops, dtypes=...)` makes
  // `@_variant_ops(op_db)` name `ops` with `dtypes=...` and `op_db`.
  std::string CalleeName(TSNode call);
  Args CallArgs(TSNode call, const Locals* locals = nullptr);

  // The names a class body binds (`binary_ufuncs_with_references = list(
  // filter(...))`), evaluated in order as the class body runs; decorators
  // of its methods may read them. Null when the class binds none.
  const Locals* ClassScope(const ClassDef& c);
  // Whether `n` reads a name for which `is_name` holds.
  bool Mentions(TSNode n, const std::function<bool(const std::string&)>& is_name) const;

  std::string Text(TSNode n) const { return std::string(module_.Text(n)); }

 private:
  Value EvalUncached(TSNode expr, const Locals* locals);
  Value AttributeOf(const Value& object, const std::string& attr);
  // Python builtins, itertools/functools/inspect/importlib, torch's
  // subtest()/pytest.param(): false when `q` is none of them (builtin_calls.cc).
  bool CallBuiltin(const std::string& q, const Args& args, TSNode call, Value* out);
  // torch's dtype helpers, from the snapshot (torch_values.cc).
  bool CallTorchHelper(const std::string& q, const Args& args, TSNode call, Value* out);
  // A plain constant of one of torch's test modules (`TEST_WITH_ROCM`), or
  // a member of an Enum class one binds (`SpectralFuncType.OneD` through
  // common_methods_invocations).
  bool TorchConstant(const std::string& q, Value* out);
  // `torch.channels_last`, `sys.maxsize`, `numpy.pi`: what the snapshot
  // knows of a name in a module outside torch's test machinery.
  bool ExternalValue(const std::string& q, Value* out);
  // Member `member` of the snapshot's enum class `cls`; unknown if none.
  static Value EnumMember(const torch_snapshot::TorchSnapshot& s, int cls,
                          const std::string& member, const std::string& text);
  Value FromPlain(const torch_snapshot::PlainValue& v, const std::string& text);
  bool IsInstance(const Value& object, const Value& classes, bool* known);
  // The snapshot's OpInfo/ModuleInfo list an expression names (`op_db`).
  bool SnapshotList(TSNode n, Value::Kind* kind, const std::vector<int>** indices);
  bool SnapshotListNamed(const std::string& qualified, Value::Kind* kind,
                         const std::vector<int>** indices);
  // Comprehension conditions and filter() lambdas compiled against their
  // loop variable (comprehension_filter.cc).
  struct Compiled;
  bool Compile(TSNode n, const std::string& var, bool exact, const Locals* scope, Compiled* out);
  bool MentionsName(TSNode n, const std::string& name) const;
  Value Run(Compiled& c, const Value& item);
  const Value& ReadVar(const Compiled& c, const Value& item);
  static const Locals* InterpreterScope(const Compiled& c);
  bool EvalCompiledComprehension(TSNode n, TSNode body, const std::vector<TSNode>& clauses,
                                 const Locals* locals, Value* result);
  // filter(fn, items) for a one-parameter lambda: false when `fn` is not
  // one whose body compiles; `known` false when an item's verdict is not.
  bool CompiledFilter(const Value& fn, const std::vector<Value>& items, std::vector<Value>* kept,
                      bool* known);
  Value EvalName(const std::string& name, TSNode node, const Locals* locals);
  Value EvalAttribute(TSNode node, const Locals* locals);
  Value EvalCall(TSNode node, const Locals* locals);
  // A call with its arguments evaluated, applied as Python would: by name a
  // builtin or torch helper (`by_name`: the name is neither a local nor a
  // module function), else the callable `callee` evaluates to under
  // `locals`. EvalCall and the compiled calls (comprehension_filter.cc).
  Value ApplyCall(TSNode call, TSNode callee, const std::string& q, bool by_name, const Args& args,
                  const Locals* locals);
  Value EvalString(TSNode node, const Locals* locals);
  Value EvalComprehension(TSNode node, const Locals* locals);
  Value EvalBinary(TSNode node, const Locals* locals);
  Value EvalComparison(TSNode node, const Locals* locals);
  Value EvalSequence(TSNode node, const Locals* locals);
  Value EvalQualified(const std::string& qualified, TSNode node);

 public:
  // Python truthiness, where it is known.
  bool Truthy(const Value& v, bool* known);

 private:
  const ParsedModule& module_;
  const ModuleModel& model_;
  SnapshotSource snapshot_source_;
  const torch_snapshot::TorchSnapshot* snapshot_ = nullptr;
  bool snapshot_loaded_ = false, snapshot_missing_ = false;
  uint64_t snapshot_misses_ = 0;
  std::set<std::string> evaluating_;  // guards against `a = a + 1` cycles
  int depth_ = 0;
  std::map<const ClassDef*, Locals> class_scopes_;
  FunctionRunner function_runner_;
  // Members of torch.ops.NS, a packet and an overload, from the snapshot's
  // operator registry: `exists` says whether Python's hasattr holds.
  Value TorchOpsMember(const std::string& path, const std::string& attr, bool* exists);
  // The `partial(f, ...)` call an alias name is bound to, or a null node.
  TSNode PartialOf(TSNode callee) const;
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
