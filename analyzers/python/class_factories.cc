#include "analyzers/python/class_factories.h"

namespace testmap::python {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// An argument by position or by keyword (not both: Python's TypeError).
const std::pair<TSNode, Value>* Argument(const EvaluatedArgs& args, size_t pos, const char* name) {
  if (pos < args.positional.size()) return &args.positional[pos];
  auto it = args.keyword.find(name);
  return it == args.keyword.end() ? nullptr : &it->second;
}

// Decorators known to hand back the test they are given, or a
// functools.wraps wrapper of it (whose __dict__ keeps parametrize and
// pytest marks): they leave every id as it was.
bool ReturnsTheTest(const Evaluator& ev, TSNode d) {
  if (Is(d, "lambda")) {  // lambda f: f
    TSNode params = Field(d, "parameters");
    TSNode body = Field(d, "body");
    return !ts_node_is_null(params) && ts_node_named_child_count(params) == 1 &&
           Is(ts_node_named_child(params, 0), "identifier") && Is(body, "identifier") &&
           ev.Text(body) == ev.Text(ts_node_named_child(params, 0));
  }
  std::string q = ev.QualifiedName(Is(d, "call") ? Field(d, "function") : d);
  if (!StartsWith(q, "unittest.") && !StartsWith(q, "torch.testing._internal.")) return false;
  std::string_view last = LastComponentView(q);
  if (!Is(d, "call")) return last == "expectedFailure";
  return StartsWith(last, "skip") || StartsWith(last, "expectedFailure");
}

}  // namespace

bool ReadPatchedClassCall(const EvaluatedArgs& args, const Evaluator& ev, PatchedClassCall* out,
                          std::string* why) {
  // `*patches` may follow the three it reads: they change no id.
  const auto* cls = Argument(args, 0, "cls");
  const auto* prefix = Argument(args, 1, "cls_prefix");
  const auto* suffix = Argument(args, 2, "fn_suffix");
  if (args.splat && args.positional.size() < 3) {
    *why = "cannot tell which arguments `*` passes";
    return false;
  }
  if (!cls || cls->second.kind != Value::Kind::kClass || cls->second.index < 0) {
    *why = "its class is not one defined in this file";
    return false;
  }
  if (!prefix || prefix->second.kind != Value::Kind::kStr || !suffix ||
      suffix->second.kind != Value::Kind::kStr) {
    *why = "cannot evaluate its class prefix and test suffix";
    return false;
  }
  for (const auto& [name, arg] : args.keyword) {
    bool by_position = (name == "cls" && args.positional.size() > 0) ||
                       (name == "cls_prefix" && args.positional.size() > 1) ||
                       (name == "fn_suffix" && args.positional.size() > 2);
    if (by_position || (name != "cls" && name != "cls_prefix" && name != "fn_suffix" &&
                        name != "xfail_prop" && name != "decorator")) {
      *why = "unexpected argument `" + name + "`";
      return false;
    }
    if (name == "decorator" && !ReturnsTheTest(ev, arg.first)) {
      *why = "cannot tell what decorator=" + ev.Text(arg.first) + " does to its tests";
      return false;
    }
  }
  out->cls = cls->second.index;
  out->prefix = prefix->second.text;
  out->suffix = suffix->second.text;
  return true;
}

bool ReadTypeCall(const EvaluatedArgs& args, const Evaluator& ev, const BaseOf& base_of,
                  TypeCall* out, std::string* why) {
  if (args.positional.size() != 3 || !args.keyword.empty() || args.splat) {
    *why = "type(...) with other than a name, bases and a namespace";
    return false;
  }
  const auto& [name_node, name] = args.positional[0];
  const auto& [bases_node, bases] = args.positional[1];
  TSNode ns = args.positional[2].first;
  if (name.kind != Value::Kind::kStr) {
    *why = "cannot evaluate the class name " + ev.Text(name_node);
    return false;
  }
  if (!Is(ns, "dictionary")) {
    *why = "cannot tell what namespace " + ev.Text(ns) + " holds";
    return false;
  }
  for (TSNode member : NamedChildren(ns))
    if (!Is(member, "comment")) {
      *why = "a class made with members in its namespace is not followed";
      return false;
    }
  // The bases' nodes, to name an imported base (`TestCase`) as the module's
  // imports resolve it: a tuple written out.
  std::vector<TSNode> nodes;
  if (Is(bases_node, "tuple"))
    for (TSNode b : NamedChildren(bases_node))
      if (!Is(b, "comment")) nodes.push_back(b);
  if (bases.kind != Value::Kind::kList || nodes.size() != bases.items.size()) {
    *why = "cannot evaluate the bases " + ev.Text(bases_node);
    return false;
  }
  out->name = name.text;
  for (size_t i = 0; i < nodes.size(); ++i) {
    ClassRef ref;
    if (!base_of(nodes[i], bases.items[i], &ref)) {
      *why = "cannot tell which class " + ev.Text(nodes[i]) + " is";
      return false;
    }
    out->bases.push_back(std::move(ref));
  }
  return true;
}

std::vector<CopiedAttribute> PatchedAttributes(
    const std::vector<SourceAttribute>& dir, const std::string& suffix,
    const std::function<bool(const std::string&)>& bases_have) {
  std::vector<CopiedAttribute> out;
  for (const SourceAttribute& a : dir) {
    if (StartsWith(a.name, "test_"))
      out.push_back({a.name, a.callable ? a.name + suffix : a.name});
    else if (!bases_have(a.name))
      out.push_back({a.name, a.name});
  }
  return out;
}

bool LooksLikeTestClassName(const std::string& name) {
  return StartsWith(name, "Test") || name.ends_with("Test") || name.ends_with("Tests") ||
         name.ends_with("TestCase");
}

}  // namespace testmap::python
