// Values that the static evaluator can know without running code: Python
// literals, torch dtypes, OpInfo/ModuleInfo references from the torch
// snapshot, subtest()/pytest.param() wrappers and callables it can
// interpret. Anything else is kUnknown, carrying its source text.
#pragma once

#include <tree_sitter/api.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace testmap::python {

struct Value {
  enum class Kind {
    kUnknown,  // text: the expression as written
    kNone,
    kBool,
    kInt,
    kFloat,
    kStr,
    kDtype,   // text: torch name (`float32`)
    kDevice,  // text: `cpu`, `cuda:0`
    kList,    // items (list, tuple, range, set: order as Python iterates)
    kOpInfo,  // index into the snapshot's ops
    kModuleInfo,
    kSubtest,    // items[0]: arg values; text: name (may be empty); decorators
    kParam,      // pytest.param: items = values; text: id (may be empty); marks
    kCallable,   // node: a lambda or function_definition the evaluator can apply
    kBuiltin,    // text: `str`, `repr`...
    kEnum,       // text: `OpDTypes.supported`, `SpectralFuncType.OneD`; index: its class
                 // in the snapshot's enum_classes, -1 when not from there
    kClass,      // text: public qualified name of a torch class (`torch.nn.Linear`); or, with
                 // index >= 0, a class of the module import-time code holds
                 // (setattr_tests.h): index is the Collector's, text its __name__
    kObject,     // an object known only by its truthiness (b) and not being None
    kSignature,  // inspect.signature(cls): text: the class's qualified name
    kModule,     // importlib.import_module(...): text: the module's name
    kNamed,      // an object known only by its __name__ (text): a function, class or
                 // module outside torch's test machinery (torch.add, numpy.float32)
  };
  Kind kind = Kind::kUnknown;
  bool b = false;
  int64_t i = 0;
  double f = 0;
  std::string text;
  std::vector<Value> items;
  std::vector<std::string> decorators;  // subtest(decorators=...) / pytest.param(marks=...)
  int index = -1;
  TSNode node{};
  bool has_id = false;  // kParam: id= given (an explicit None id is possible)
  // kUnknown: known to be a bool, int, float or str, whose value is not
  // (`not x`, `len(x)`, `x in y`): pytest and torch name a test by such a
  // value, so no stand-in id (`x0`, a name's last part) may be given.
  bool primitive = false;

  static Value Unknown(std::string t) { return Make(Kind::kUnknown, std::move(t)); }
  static Value UnknownPrimitive(std::string t) {
    Value x = Unknown(std::move(t));
    x.primitive = true;
    return x;
  }
  static Value None() { return Make(Kind::kNone, "None"); }
  static Value Bool(bool v) {
    Value x = Make(Kind::kBool, "");
    x.b = v;
    return x;
  }
  static Value Int(int64_t v) {
    Value x = Make(Kind::kInt, "");
    x.i = v;
    return x;
  }
  static Value Float(double v) {
    Value x = Make(Kind::kFloat, "");
    x.f = v;
    return x;
  }
  static Value Str(std::string s) { return Make(Kind::kStr, std::move(s)); }
  static Value Dtype(std::string name) { return Make(Kind::kDtype, std::move(name)); }
  static Value List(std::vector<Value> items) {
    Value x = Make(Kind::kList, "");
    x.items = std::move(items);
    return x;
  }

  bool known() const { return kind != Kind::kUnknown; }
  // True if this value or anything inside it is unknown.
  bool HasUnknown() const;

 private:
  static Value Make(Kind k, std::string t) {
    Value v;
    v.kind = k;
    v.text = std::move(t);
    return v;
  }
};

// Python's str() of a float: shortest round-trip digits, `1e-05`, `0.5`, `1.0`.
std::string PythonFloatStr(double v);

// Python's str() of a value, for values where it is known; torch dtypes
// print as `torch.float32`. Returns false for values it cannot render.
bool PythonStr(const Value& v, std::string* out);

}  // namespace testmap::python
