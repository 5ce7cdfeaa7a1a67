// The Python reader's abstract interpreter: runs a backend's modules the
// way `import` would (module code in import order, into the functions it
// calls, loops over known lists, conditions it can evaluate), without
// executing anything. What it cannot know stays Unknown; registrations made
// under a condition it could not decide are marked uncertain. torch itself
// is the TorchLibraryModel's business.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzers/backend/py_object.h"
#include "analyzers/backend/torch_library_model.h"
#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/module_model.h"
#include "analyzers/python/python_parser.h"

namespace testmap::backend {

struct PyModule {
  std::string name;  // dotted: `toy_backend.fallbacks`
  std::string path;  // absolute
  bool is_package = false;
  std::unique_ptr<python::ParsedModule> parsed;
  std::unique_ptr<python::ModuleModel> model;
  std::unique_ptr<python::Evaluator> strings;  // literal strings, as the test scan reads them
  std::shared_ptr<PyEnv> globals = std::make_shared<PyEnv>();
  enum class State { kNotRun, kRunning, kDone } state = State::kNotRun;
};

class PyInterpreter {
 public:
  PyInterpreter(TorchLibraryModel& torch, std::map<std::string, PyModule*> modules,
                std::vector<Diagnostic>* diagnostics);

  // Runs a module's top level once (imports of backend modules run them
  // first). A module no package imports may never run: what it registers
  // is then uncertain.
  void Run(PyModule* module, bool maybe_not_imported = false);

 private:
  enum class Flow { kNormal, kReturn, kBreak, kContinue };
  struct Frame {
    PyModule* module;
    std::shared_ptr<PyEnv> env;  // locals; module frames use the globals
    PyRef returned;
  };

  Flow ExecBlock(TSNode block, Frame& f);
  Flow Exec(TSNode stmt, Frame& f);
  void Assign(TSNode target, const PyRef& value, Frame& f);
  void Import(TSNode stmt, Frame& f);
  void DefineFunction(TSNode def, const std::vector<TSNode>& decorators, Frame& f);
  Flow ExecIf(TSNode stmt, Frame& f);
  Flow ExecFor(TSNode stmt, Frame& f);

  PyRef Eval(TSNode expr, Frame& f);
  PyRef EvalCall(TSNode call, Frame& f);
  PyArgs EvalArgs(TSNode arguments, Frame& f);
  PyRef EvalComprehension(TSNode expr, Frame& f);
  PyRef EvalComparison(TSNode expr, Frame& f);
  PyRef EvalString(TSNode expr, Frame& f);
  PyRef Lookup(const std::string& name, Frame& f);
  PyRef Attribute(const PyRef& obj, const std::string& attr, Frame& f, TSNode at);
  PyRef Call(const PyRef& callee, const PyArgs& args, Frame& f, TSNode at);
  PyRef CallFunction(const PyRef& fn, const PyArgs& args, TSNode at);
  PyRef Builtin(const std::string& name, const PyArgs& args, Frame& f, TSNode at);

  // A backend module by absolute or relative dotted name, running it first.
  PyModule* ImportModule(const std::string& name, Frame& f);
  // True/false when known; nullopt when not.
  std::optional<bool> Truth(const PyRef& v) const;
  std::optional<bool> Equal(const PyRef& a, const PyRef& b) const;
  bool StrOf(const PyRef& v, std::string* out) const;

  Site SiteOf(TSNode n, const Frame& f) const;
  std::string Text(TSNode n, const Frame& f) const;
  void Note(TSNode n, const Frame& f, std::string message);
  bool Budget(TSNode n, const Frame& f);

  TorchLibraryModel& torch_;
  std::map<std::string, PyModule*> modules_;
  std::vector<Diagnostic>* diagnostics_;
  int uncertain_ = 0;
  int depth_ = 0;
  size_t steps_ = 0;
  bool out_of_budget_ = false;
};

}  // namespace testmap::backend
