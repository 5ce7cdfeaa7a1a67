// The top level of a test module as the analysis sees it: imports, module
// assignments, functions, classes with their members, and the statements
// (class definitions, instantiate_* calls, del) in execution order. Built
// from the tree in one pass over top-level statements and class bodies;
// function bodies are never walked here.
#pragma once

#include <tree_sitter/api.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "analyzers/python/python_parser.h"

namespace testmap::python {

struct FunctionDef {
  std::string name;
  TSNode def{};                     // function_definition
  TSNode outer{};                   // decorated_definition, or def when undecorated
  std::vector<TSNode> decorators;   // decorator expressions, top to bottom
  std::vector<std::string> params;  // parameter names, in order
  // What its text holds (body included), looked for once: a call that adds
  // tests (`setattr(`), a name bound through `globals()[`, a call of
  // make_test_cls_with_patches (class_factories.h) by any name the module
  // imported it as (module-level functions only).
  bool calls_setattr = false;
  bool binds_globals = false;
  bool makes_classes = false;
};

struct ClassMember {
  enum class Kind { kFunction, kAttribute, kClass };
  Kind kind = Kind::kAttribute;
  std::string name;
  int function = -1;  // index into ClassDef::functions for kFunction
  TSNode value{};     // assigned expression for kAttribute
};

struct ClassDef {
  std::string name;
  TSNode node{};                   // class_definition
  TSNode outer{};                  // decorated_definition or class_definition
  std::vector<TSNode> bases;       // superclass expressions (keywords excluded)
  std::vector<TSNode> decorators;  // class decorators, top to bottom
  std::vector<FunctionDef> functions;
  std::vector<ClassMember> members;  // in definition order; later wins on lookup
  // The names of its kAttribute members, looked up once per name a
  // decorator reads (a scan of `members` per name was quadratic in a class
  // of thousands of decorated tests).
  std::set<std::string, std::less<>> attributes;
};

// A top-level statement that changes the module namespace.
struct Statement {
  // kBlock: import-time code setattr_tests.h runs: a top-level `for` loop
  // that calls setattr, binds through globals() or makes classes, a
  // `globals()[...] = ...` statement, a `setattr(...)` call.
  enum class Kind { kClass, kFunction, kAssign, kDelete, kCall, kImport, kBlock };
  Kind kind;
  std::string name;  // bound/deleted name (kClass, kFunction, kAssign, kDelete, kImport)
  int index = -1;    // into classes or functions
  TSNode node{};     // assigned value (kAssign), call expression (kCall), the statement (kBlock)
};

// `from M import a, b as c`: what pytest's import of the file asks of M.
struct FromImport {
  std::string module, name;
  int line = 0;
};

struct ModuleModel {
  std::map<std::string, std::string> imports;  // local name -> dotted qualified name
  std::map<std::string, TSNode> assignments;   // last top-level `NAME = expr`
  std::vector<FunctionDef> functions;          // module-level functions
  std::map<std::string, int> function_index;
  std::vector<ClassDef> classes;
  std::vector<Statement> statements;
  std::vector<FromImport> from_imports;
  std::vector<std::pair<int, std::string>> notes;  // (line, what was not followed)
};

ModuleModel BuildModuleModel(const ParsedModule& module);

// A function definition as the model records it; `outer` is the
// decorated_definition around `def`, or `def` itself.
FunctionDef ReadFunctionDef(const ParsedModule& module, TSNode def, TSNode outer);

}  // namespace testmap::python
