// Tests that a module's import-time code adds to its classes with setattr:
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
// A small interpreter runs such a top-level call (or a top-level `for` loop
// that calls setattr) over the statements these generators use: assignment
// and tuple unpacking, for, if/elif/else, nested def and class, return,
// assert (ignored: it only raises). Expressions go to the Evaluator; a
// nested def keeps the names it closes over, which its decorators read
// when the test is expanded later. Anything else stops the run with a
// reason, keeping the tests added until then.
#pragma once

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/module_model.h"

namespace testmap::python {

struct AddedTest {
  int cls = -1;                     // the caller's class handle (see SetattrRunner::ClassOf)
  std::string name;                 // attribute name: the test's name
  const FunctionDef* fn = nullptr;  // owned by the runner
  const Evaluator::Locals* scope = nullptr;  // names the def closes over; owned by the runner
};

class SetattrRunner {
 public:
  // The caller's handle for a class bound to `name` at module level, or -1.
  using ClassOf = std::function<int(const std::string& name)>;

  SetattrRunner(const ParsedModule& module, const ModuleModel& model, Evaluator& ev);

  // Whether a top-level statement is one this runner should follow: a call
  // of a module function whose body calls setattr, or a kBlock statement.
  bool Wants(const Statement& s) const;

  // Runs the statement. Appends what setattr added to `out` in order.
  // Returns false with `why` (and its line) when the run had to stop early.
  bool Run(const Statement& s, const ClassOf& class_of, std::vector<AddedTest>* out,
           std::string* why, int* line);

  // Calls a module-level def with several statements for the Evaluator
  // (Evaluator::SetFunctionRunner): `has_reduction_tag(op)` in a filter.
  // Unknown when the body cannot be followed or calls setattr.
  Value CallDef(const Value& fn, const std::vector<Value>& args);

 private:
  struct Frame;
  enum class Flow { kNext, kReturn, kStop };
  Flow Block(TSNode block, Frame& f);
  Flow Statement1(TSNode s, Frame& f);
  bool Assign(TSNode target, const Value& v, Frame& f);
  Value Expr(TSNode e, Frame& f);
  Value CallFunction(const Value& fn, const std::vector<Value>& args, TSNode at);
  bool Stop(TSNode at, std::string why);

  const ParsedModule& m_;
  const ModuleModel& model_;
  Evaluator& ev_;
  const ClassOf* class_of_ = nullptr;
  std::vector<AddedTest>* out_ = nullptr;
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
