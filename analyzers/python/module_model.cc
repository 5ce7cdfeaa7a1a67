#include "analyzers/python/module_model.h"

#include <cctype>

#include "analyzers/python/class_factories.h"

namespace testmap::python {
namespace {

// What FunctionDef::calls_setattr and binds_globals look for in a text.
constexpr std::string_view kSetattrCall = "setattr(";
constexpr std::string_view kGlobalsBinding = "globals()[";

// The expressions of a decorated definition's decorators (`dtypes(...)` of
// `@dtypes(...)`), in source order; none for any other node.
std::vector<TSNode> DecoratorExpressions(TSNode outer) {
  std::vector<TSNode> out;
  if (!Is(outer, "decorated_definition")) return out;
  for (TSNode d : NamedChildren(outer))
    if (Is(d, "decorator") && ts_node_named_child_count(d) > 0)
      out.push_back(ts_node_named_child(d, 0));
  return out;
}

class ModelBuilder {
 public:
  explicit ModelBuilder(const ParsedModule& m) : m_(m) {}

  ModuleModel Build() {
    for (TSNode s : NamedChildren(m_.root())) TopLevel(s);
    return std::move(model_);
  }

 private:
  std::string Str(TSNode n) const { return std::string(m_.Text(n)); }

  FunctionDef ReadFunction(TSNode def, TSNode outer) { return ReadFunctionDef(m_, def, outer); }

  ClassDef ReadClass(TSNode node, TSNode outer) {
    ClassDef c;
    c.node = node;
    c.outer = outer;
    c.name = Str(Field(node, "name"));
    c.decorators = DecoratorExpressions(outer);
    TSNode supers = Field(node, "superclasses");
    if (!ts_node_is_null(supers))
      for (TSNode b : NamedChildren(supers)) {
        if (!Is(b, "keyword_argument") && !Is(b, "comment")) c.bases.push_back(b);
      }
    TSNode body = Field(node, "body");
    for (TSNode s : NamedChildren(body)) {
      TSNode def = s;
      if (Is(s, "decorated_definition")) def = Field(s, "definition");
      if (Is(def, "function_definition")) {
        c.functions.push_back(ReadFunction(def, s));
        c.members.push_back({ClassMember::Kind::kFunction,
                             c.functions.back().name,
                             static_cast<int>(c.functions.size()) - 1,
                             {}});
      } else if (Is(def, "class_definition")) {
        c.members.push_back({ClassMember::Kind::kClass, Str(Field(def, "name")), -1, def});
      } else if (Is(s, "expression_statement") && ts_node_named_child_count(s) == 1) {
        TSNode a = ts_node_named_child(s, 0);
        if (Is(a, "assignment")) {
          TSNode left = Field(a, "left");
          if (Is(left, "identifier")) {
            c.members.push_back({ClassMember::Kind::kAttribute, Str(left), -1, Field(a, "right")});
            c.attributes.insert(Str(left));
          }
        }
      }
    }
    return c;
  }

  void Import(TSNode s) {
    if (Is(s, "import_statement")) {
      for (TSNode name : NamedChildren(s)) {
        if (Is(name, "aliased_import")) {
          Bind(Str(Field(name, "alias")), Str(Field(name, "name")));
        } else if (Is(name, "dotted_name")) {
          // `import a.b` binds `a`, under which a.b is reachable.
          std::string full = Str(name);
          std::string first = full.substr(0, full.find('.'));
          Bind(first, first);
        }
      }
      return;
    }
    TSNode module_name = Field(s, "module_name");
    std::string module = Str(module_name);
    for (TSNode name : NamedChildren(s)) {
      if (ts_node_eq(name, module_name)) continue;
      int line = ParsedModule::FirstLine(s);
      if (Is(name, "aliased_import")) {
        Bind(Str(Field(name, "alias")), module + "." + Str(Field(name, "name")));
        model_.from_imports.push_back({module, Str(Field(name, "name")), line});
      } else if (Is(name, "dotted_name")) {
        Bind(Str(name), module + "." + Str(name));
        model_.from_imports.push_back({module, Str(name), line});
      } else if (Is(name, "wildcard_import"))
        model_.notes.push_back(
            {ParsedModule::FirstLine(s), "`from " + module + " import *` is not followed"});
    }
  }

  void Bind(const std::string& local, const std::string& qualified) {
    model_.imports[local] = qualified;
    model_.statements.push_back({Statement::Kind::kImport, local, -1, {}});
  }

  // Whether `text` calls `name` (a whole name, not an attribute's).
  static bool CallsName(std::string_view text, std::string_view name) {
    for (size_t at = text.find(name); at != std::string_view::npos; at = text.find(name, at + 1)) {
      bool starts = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) ||
                                 text[at - 1] == '_' || text[at - 1] == '.');
      size_t end = at + name.size();
      if (starts && end < text.size() && text[end] == '(') return true;
    }
    return false;
  }

  // Whether `s`'s text holds `what`, or `s` calls a module function defined
  // above for which `holds` is set (a `for` loop that calls a helper which
  // setattrs).
  bool Mentions(TSNode s, std::string_view what, bool FunctionDef::*holds) const {
    std::string_view text = m_.Text(s);
    if (!what.empty() && text.find(what) != std::string_view::npos) return true;
    for (const FunctionDef& f : model_.functions)
      if ((f.*holds) && CallsName(text, f.name)) return true;
    return false;
  }

  // Whether `text` calls make_test_cls_with_patches by a name the module
  // imported it as, or by its dotted name.
  bool CallsClassFactory(std::string_view text) const {
    std::string_view last = LastComponentView(kMakeTestClsWithPatches);
    if (text.find(std::string(last) + "(") != std::string_view::npos) return true;
    for (const auto& [local, qualified] : model_.imports)
      if (qualified == kMakeTestClsWithPatches && CallsName(text, local)) return true;
    return false;
  }

  // Import-time code that setattr_tests.h follows: it adds tests, binds
  // names through globals() or makes classes.
  bool MakesTests(TSNode s) const {
    return Mentions(s, kSetattrCall, &FunctionDef::calls_setattr) ||
           Mentions(s, kGlobalsBinding, &FunctionDef::binds_globals) ||
           Mentions(s, "", &FunctionDef::makes_classes) || CallsClassFactory(m_.Text(s));
  }

  // Whether `e` is `f(...)` or `NAME = f(...)` for f a module function
  // that makes tests or make_test_cls_with_patches.
  bool CallsTestMaker(TSNode e) const {
    TSNode call = e;
    if (Is(e, "assignment"))
      call = Is(Field(e, "left"), "identifier") ? Field(e, "right") : TSNode{};
    if (!Is(call, "call")) return false;
    TSNode callee = Field(call, "function");
    auto fn = model_.function_index.find(Str(callee));
    if (fn != model_.function_index.end()) {
      const FunctionDef& f = model_.functions[fn->second];
      return f.calls_setattr || f.binds_globals || f.makes_classes;
    }
    return CallsClassFactory(Str(callee) + "(");
  }

  // `globals()[KEY] = VALUE`.
  bool BindsGlobals(TSNode expression) const {
    if (!Is(expression, "assignment")) return false;
    TSNode left = Field(expression, "left");
    return Is(left, "subscript") && m_.Text(Field(left, "value")) == "globals()";
  }

  void TopLevel(TSNode s) {
    TSNode def = Is(s, "decorated_definition") ? Field(s, "definition") : s;
    if (Is(def, "class_definition")) {
      model_.classes.push_back(ReadClass(def, s));
      model_.statements.push_back({Statement::Kind::kClass,
                                   model_.classes.back().name,
                                   static_cast<int>(model_.classes.size()) - 1,
                                   {}});
    } else if (Is(def, "function_definition")) {
      model_.functions.push_back(ReadFunction(def, s));
      model_.functions.back().makes_classes = CallsClassFactory(m_.Text(def));
      int idx = static_cast<int>(model_.functions.size()) - 1;
      model_.function_index[model_.functions.back().name] = idx;
      model_.statements.push_back(
          {Statement::Kind::kFunction, model_.functions.back().name, idx, {}});
    } else if (Is(s, "import_statement") || Is(s, "import_from_statement")) {
      Import(s);
    } else if (Is(s, "delete_statement")) {
      for (TSNode t : NamedChildren(s)) {
        if (Is(t, "expression_list"))
          for (TSNode name : NamedChildren(t)) Delete(name);
        else
          Delete(t);
      }
    } else if (Is(s, "expression_statement") && ts_node_named_child_count(s) == 1) {
      TSNode e = ts_node_named_child(s, 0);
      bool runs = BindsGlobals(e) || (Is(e, "call") && Str(Field(e, "function")) == "setattr");
      if (runs) {
        model_.statements.push_back({Statement::Kind::kBlock, "", -1, s});
      } else if (Is(e, "assignment")) {
        TSNode left = Field(e, "left"), right = Field(e, "right");
        if (Is(left, "identifier") && !ts_node_is_null(right)) {
          model_.assignments[Str(left)] = right;
          model_.statements.push_back({Statement::Kind::kAssign, Str(left), -1, right});
        }
      } else if (Is(e, "call")) {
        model_.statements.push_back({Statement::Kind::kCall, "", -1, e});
      }
      // setattr_tests.h runs `f(...)` and `NAME = f(...)` for such an f;
      // `x = [f(c) for c in classes]` and the like, it does not.
      bool code = Is(e, "call") || (Is(e, "assignment") && !Is(Field(e, "right"), "string"));
      if (!runs && code && MakesTests(s) && !CallsTestMaker(e))
        model_.notes.push_back(
            {ParsedModule::FirstLine(s), "import-time code in `" + Str(s).substr(0, 60) +
                                             "` is not followed: tests it makes are missing"});
    } else if (Is(s, "if_statement")) {
      // `if __name__ == "__main__":` runs nothing at import; other
      // conditional definitions depend on the environment.
      TSNode cond = Field(s, "condition");
      if (m_.Text(cond).find("__name__") == std::string_view::npos && !OnlyImports(s))
        model_.notes.push_back({ParsedModule::FirstLine(s),
                                "definitions under `if " + Str(cond) + ":` are not followed"});
    } else if (Is(s, "for_statement") && MakesTests(s)) {
      model_.statements.push_back({Statement::Kind::kBlock, "", -1, s});
    } else if (!Is(s, "comment") && Mentions(s, kGlobalsBinding, &FunctionDef::binds_globals)) {
      model_.notes.push_back({ParsedModule::FirstLine(s),
                              "names bound through globals()[...] in this block are not "
                              "followed: a test class made there is missing"});
    } else if ((Is(s, "try_statement") || Is(s, "with_statement") || Is(s, "for_statement")) &&
               (m_.Text(s).find("class ") != std::string_view::npos ||
                m_.Text(s).find("def test") != std::string_view::npos)) {
      model_.notes.push_back(
          {ParsedModule::FirstLine(s), "definitions inside a top-level block are not followed"});
    }
  }

  // `if TEST_SCIPY: import scipy`: a block that only imports defines no
  // test, whichever way its condition goes.
  bool OnlyImports(TSNode n) const {
    TSNode condition = Field(n, "condition");
    for (TSNode ch : NamedChildren(n)) {
      if (ts_node_eq(ch, condition)) continue;
      std::string_view t = ts_node_type(ch);
      if (t == "block" || t == "else_clause" || t == "elif_clause") {
        if (!OnlyImports(ch)) return false;
      } else if (t != "import_statement" && t != "import_from_statement" && t != "comment" &&
                 t != "pass_statement") {
        return false;
      }
    }
    return true;
  }

  void Delete(TSNode t) {
    if (Is(t, "identifier"))
      model_.statements.push_back({Statement::Kind::kDelete, Str(t), -1, {}});
  }

  const ParsedModule& m_;
  ModuleModel model_;
};

}  // namespace

ModuleModel BuildModuleModel(const ParsedModule& module) { return ModelBuilder(module).Build(); }

FunctionDef ReadFunctionDef(const ParsedModule& m, TSNode def, TSNode outer) {
  FunctionDef f;
  f.def = def;
  f.outer = outer;
  TSNode name = Field(def, "name");  // none for a lambda
  if (!ts_node_is_null(name)) f.name = std::string(m.Text(name));
  f.decorators = DecoratorExpressions(outer);
  std::string_view text = m.Text(def);
  f.calls_setattr = text.find(kSetattrCall) != std::string_view::npos;
  f.binds_globals = text.find(kGlobalsBinding) != std::string_view::npos;
  TSNode params = Field(def, "parameters");
  for (TSNode p : NamedChildren(params)) {
    if (Is(p, "identifier")) {
      f.params.push_back(std::string(m.Text(p)));
    } else {
      TSNode name = Field(p, "name");
      if (ts_node_is_null(name) && ts_node_named_child_count(p) > 0)
        name = ts_node_named_child(p, 0);
      if (!ts_node_is_null(name) && Is(name, "identifier"))
        f.params.push_back(std::string(m.Text(name)));
    }
  }
  return f;
}

}  // namespace testmap::python
