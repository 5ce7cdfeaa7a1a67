// Values of the Python reader's abstract interpreter: what it can know
// about a backend's Python without running it. Literals, lists, torch
// operator objects (namespaces, packets, overloads and their schemas from
// the schema registry), torch.library objects (a Library, a custom op, a
// registration decorator waiting for its function), functions of the
// backend it can step into, and Unknown for everything else.
#pragma once

#include <tree_sitter/api.h>

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "analyzers/backend/schema_registry.h"

namespace testmap::backend {

struct PyObject;
using PyRef = std::shared_ptr<PyObject>;
struct PyEnv;
struct PyModule;

// Where the interpreter is: a registration made here is reported at
// file:line; `uncertain` when it happens under a condition the reader
// could not evaluate.
struct Site {
  std::string file;
  int line = 0;
  bool uncertain = false;
};

struct PyArgs {
  std::vector<PyRef> positional;
  std::map<std::string, PyRef> keyword;
  // Positional argument i, else keyword `name`, else null.
  PyRef Get(size_t i, const std::string& name) const {
    if (i < positional.size()) return positional[i];
    auto it = keyword.find(name);
    return it == keyword.end() ? nullptr : it->second;
  }
};

struct PyObject {
  enum class Kind {
    kUnknown,  // text: the expression
    kNone,
    kBool,
    kInt,
    kStr,
    kList,  // items; shared, so that append() is seen by every holder
    kTuple,
    kName,         // text: a dotted name outside the backend (`torch.library.impl`)
    kModule,       // module: a module of the backend
    kOpNamespace,  // text: `aten` (torch.ops.aten)
    kOpPacket,     // text: `aten::floor`
    kOpOverload,   // text: canonical overload (`aten::floor.out`, `aten::abs`)
    kSchema,       // schema
    kSchemaArg,    // arg
    kAliasInfo,    // b: is_write
    kTypeRepr,     // text: a schema type as torch prints it
    kFunction,     // node: function_definition or lambda; module, closure
    kBoundMethod,  // self + text: the method name
    kLibrary,      // text: namespace; kind, key
    kCustomOp,     // text: qualified name
    kDecorator,    // apply: what registering a function does
  };
  Kind kind = Kind::kUnknown;
  bool b = false;
  int64_t i = 0;
  std::string text;
  std::vector<PyRef> items;
  const OpSchema* schema = nullptr;
  const SchemaArgument* arg = nullptr;
  // Functions.
  TSNode node{};
  PyModule* module = nullptr;
  std::shared_ptr<PyEnv> closure;
  std::string name;       // function name, `<lambda>`; overloads: the packet expanded from
  std::string signature;  // functions: the parameter list as written
  // Bound methods.
  PyRef self;
  // Libraries.
  std::string lib_kind, lib_key;
  // Decorators: registers `fn` (a function value) at `site`.
  std::function<void(const PyRef& fn, const Site& site)> apply;
  // Where a literal or operator was written, for reporting.
  std::string file;
  int line = 0;
  // Kept by a filter the reader could not evaluate: may not be there.
  bool maybe = false;

  static PyRef Make(Kind k, std::string text = "") {
    auto o = std::make_shared<PyObject>();
    o->kind = k;
    o->text = std::move(text);
    return o;
  }
  static PyRef Unknown(std::string text = "") { return Make(Kind::kUnknown, std::move(text)); }
  static PyRef None() { return Make(Kind::kNone); }
  static PyRef Bool(bool v) {
    PyRef o = Make(Kind::kBool);
    o->b = v;
    return o;
  }
  static PyRef Int(int64_t v) {
    PyRef o = Make(Kind::kInt);
    o->i = v;
    return o;
  }
  static PyRef Str(std::string s) { return Make(Kind::kStr, std::move(s)); }
  static PyRef List(std::vector<PyRef> items, Kind k = Kind::kList) {
    PyRef o = Make(k);
    o->items = std::move(items);
    return o;
  }
  bool Is(Kind k) const { return kind == k; }
  bool IsSequence() const { return kind == Kind::kList || kind == Kind::kTuple; }
};

// A namespace: a module's globals or a function call's locals.
struct PyEnv {
  std::map<std::string, PyRef> vars;
  std::shared_ptr<PyEnv> parent;  // enclosing function scope (closures)
  PyRef Find(const std::string& name) const {
    for (const PyEnv* e = this; e; e = e->parent.get()) {
      auto it = e->vars.find(name);
      if (it != e->vars.end()) return it->second;
    }
    return nullptr;
  }
};

}  // namespace testmap::backend
