// Test classes made at import time by a call rather than a class
// statement, and the rules the scan follows them by:
//
//   BarTest = type("BarTest", (FooTest,), {})      a subclass with no members
//   cls = make_test_cls_with_patches(               torch._dynamo.testing's copy
//       FooTest, "Propagate", "_propagate", (config, "flag", True),
//       xfail_prop="_xfail", decorator=skipIfTorchDynamo("..."))
//   globals()[cls.__name__] = cls                    bound as PropagateFooTest
//
// make_test_cls_with_patches (torch 2.13, _dynamo/testing.py) makes
// `type(prefix + cls.__name__, cls.__bases__, {})` and walks dir(cls),
// sorted: a callable `test_*` attribute is set as `name + suffix` (wrapped
// with functools.wraps, so its parametrize and pytest marks stay), a
// non-callable one under its own name, any other attribute under its own
// name unless the copy already has it through its bases. The patches are
// applied only when a test runs: they change no id. Setattr generators'
// interpreter (setattr_tests.h) runs these calls; the Collector makes the
// classes.
#pragma once

#include <tree_sitter/api.h>

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "analyzers/python/expression_evaluator.h"
#include "analyzers/python/python_value.h"

namespace testmap::python {

// The helper, as the module's imports resolve it.
inline constexpr std::string_view kMakeTestClsWithPatches =
    "torch._dynamo.testing.make_test_cls_with_patches";

// A call's arguments as the interpreter evaluated them, each with its node.
// After a `*splat` the positions are unknown: `positional` stops there.
struct EvaluatedArgs {
  std::vector<std::pair<TSNode, Value>> positional;
  std::map<std::string, std::pair<TSNode, Value>> keyword;
  bool splat = false;  // a `*x` came after `positional`
};

// A class value: kClass with `index` the caller's handle of a class of the
// module (>= 0), or an imported class known by its qualified name.
struct ClassRef {
  int index = -1;
  std::string qualified;  // when index < 0
};

struct PatchedClassCall {
  int cls = -1;  // the source class's handle
  std::string prefix, suffix;
};

// Reads make_test_cls_with_patches(cls, cls_prefix, fn_suffix, *patches,
// xfail_prop=, decorator=): false with `why` when the source is not a class
// of the module, the prefix or suffix is not a known str, or the decorator
// is not one known to return the test it is given (unittest's and torch's
// skip*/expectedFailure decorators, `lambda f: f`).
bool ReadPatchedClassCall(const EvaluatedArgs& args, const Evaluator& ev, PatchedClassCall* out,
                          std::string* why);

struct TypeCall {
  std::string name;
  std::vector<ClassRef> bases;
};

// Which class a base is (its node and value), or false.
using BaseOf = std::function<bool(TSNode node, const Value& value, ClassRef* out)>;

// Reads type(name, bases, {}): false with `why` for anything else (a
// namespace with members, bases that are not all known classes).
bool ReadTypeCall(const EvaluatedArgs& args, const Evaluator& ev, const BaseOf& base_of,
                  TypeCall* out, std::string* why);

// One attribute of dir(cls) as make_test_cls_with_patches sees it.
struct SourceAttribute {
  std::string name;
  bool callable = false;
};
struct CopiedAttribute {
  std::string from, to;
};

// The copy's attributes, in the order the helper sets them, from dir(cls)
// (sorted names) and whether the copy's bases already have a name.
std::vector<CopiedAttribute> PatchedAttributes(
    const std::vector<SourceAttribute>& dir, const std::string& suffix,
    const std::function<bool(const std::string&)>& bases_have);

// A module-level name that pytest may collect as a test class when a call
// binds it (`FooTest = f(...)`, `TestFoo = ...`, `FooTests`, `FooTestCase`).
bool LooksLikeTestClassName(const std::string& name);

}  // namespace testmap::python
