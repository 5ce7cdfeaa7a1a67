// Import-time code that makes tests: a module function that adds tests to
// its classes with setattr,
//
//   def generate_not_implemented_tests(cls):
//       def create_test_func(op):
//           @dtypes(*_types)
//           def test(self, device, dtype): ...
//           return test
//       for op in tensor_binary_ops:
//           setattr(cls, f"test_{op}_not_implemented", create_test_func(op))
//   generate_not_implemented_tests(TestBinaryUfuncs)
//
// or that makes test classes and binds them through globals()
// (class_factories.h: type(...), make_test_cls_with_patches(...)):
//
//   def make_propagate_real_tensors_cls(cls):
//       cls = make_test_cls_with_patches(cls, "PropagateRealTensors", ...)
//       globals()[cls.__name__] = cls
//   make_propagate_real_tensors_cls(FakeTensorTest)
//
// A small interpreter runs such a top-level call, a top-level `for` loop or
// `globals()[...] = ...` statement, or a top-level `Name = call(...)` that
// makes a class, over the statements these generators use: assignment and
// tuple unpacking, for, if/elif/else, nested def and class, return, calls
// of defs (positional and keyword arguments), assert (ignored: it only
// raises). In the module's own code (a top-level loop) a name it binds is
// the module's, which pytest collects a class by. Expressions go to the
// Evaluator; a nested def
// keeps the names it closes over, which its decorators read when the test
// is expanded later. What the code does to the module (a test added, a
// class made, a name bound) goes to the caller's ImportTimeHost as it
// happens, so that later statements see it. Anything else stops the run
// with a reason, keeping what was done until then.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyzers/python/class_factories.h"
#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/module_model.h"

namespace testmap::python {

struct AddedTest {
  int cls = -1;                              // the host's class handle
  std::string name;                          // attribute name: the test's name
  const FunctionDef* fn = nullptr;           // owned by the runner
  const Evaluator::Locals* scope = nullptr;  // names the def closes over; owned by the runner
};

// The module namespace the runner's code acts on (the Collector's): class
// handles are the host's.
class ImportTimeHost {
 public:
  virtual ~ImportTimeHost() = default;
  // The class bound to `name` at module level, or -1.
  virtual int ClassBound(const std::string& name) const = 0;
  // A class's __name__.
  virtual std::string ClassName(int cls) const = 0;
  // `name` now refers to class `cls` in the module, or (cls -1) to
  // something that is not a class.
  virtual void BindName(const std::string& name, int cls) = 0;
  // setattr(cls, name, fn) of a test.
  virtual void AddTest(const AddedTest& test) = 0;
  // The class type(...) or make_test_cls_with_patches(...) makes; bound to
  // no name yet.
  virtual int MakeClass(const TypeCall& call) = 0;
  virtual int MakePatchedClass(const PatchedClassCall& call) = 0;
};

class SetattrRunner {
 public:
  SetattrRunner(const ParsedModule& module, const ModuleModel& model, Evaluator& ev);

  // Whether a top-level statement is one this runner should follow: a call
  // of a module function whose body calls setattr, binds through globals()
  // or makes classes; `Name = call(...)` that may make a class; a kBlock
  // statement.
  bool Wants(const Statement& s) const;

  // Runs the statement against `host`. Returns false with `why` (and its
  // line) when the run had to stop early.
  bool Run(const Statement& s, ImportTimeHost& host, std::string* why, int* line);

  // Calls a module-level def with several statements for the Evaluator
  // (Evaluator::SetFunctionRunner): `has_reduction_tag(op)` in a filter.
  // Unknown when the body cannot be followed or calls setattr.
  Value CallDef(const Value& fn, const std::vector<Value>& args);

 private:
  struct Frame;
  enum class Flow { kNext, kReturn, kStop };
  Flow Block(TSNode block, Frame& f);
  Flow Statement1(TSNode s, Frame& f);
  // A class statement in the module's own code (a top-level loop): a class
  // pytest may collect, which this runner does not model.
  Flow ModuleClass(TSNode def);
  bool Assign(TSNode target, const Value& v, Frame& f);
  // `name` bound at module level to `v` (a module-level assignment,
  // globals()[name] = v); `strict`: a value that may be a class stops.
  bool BindModuleName(TSNode at, const std::string& name, const Value& v, bool strict);
  Value Expr(TSNode e, Frame& f);
  // type(...) and make_test_cls_with_patches(...): false when `call` is
  // neither.
  bool MakesClass(TSNode call, Frame& f, Value* out);
  // `type` is Python's (not a name the module binds); `globals()` is.
  bool IsBuiltinType(TSNode callee) const;
  bool IsGlobals(TSNode call, const Frame& f) const;
  // Stops at what a def called by an expression may not do (it runs for
  // its value only), remembering that something was refused.
  bool Refuse(TSNode at, const std::string& what);
  bool EvaluateArguments(TSNode call, Frame& f, EvaluatedArgs* out);
  // Runs a def with its arguments; unknown (and the run stopped) when it
  // cannot bind them.
  Value CallFunction(const Value& fn, const EvaluatedArgs& args, TSNode at);
  bool Stop(TSNode at, std::string why);

  const ParsedModule& m_;
  const ModuleModel& model_;
  Evaluator& ev_;
  ImportTimeHost* host_ = nullptr;
  bool effects_ = false;  // false in a def called by an expression: it may change nothing
  bool refused_ = false;  // such a def tried to
  std::string why_;
  int why_line_ = 0;
  int depth_ = 0;
  size_t steps_ = 0;
  // Stable storage for what AddedTest points at, and for closures.
  std::deque<FunctionDef> defs_;
  std::deque<Evaluator::Locals> scopes_;  // a nested def's names at definition time
  std::vector<std::shared_ptr<Evaluator::Locals>> closures_;  // its defining frame
};

}  // namespace testmap::python
