// Calls the evaluator knows without the torch snapshot: Python builtins
// (range, list, set, filter, isinstance, len of a list or str), itertools, inspect.signature,
// importlib.import_module, and the wrappers that name test cases
// (torch's subtest(), pytest.param()).
#include <algorithm>

#include "analyzers/python/expression_evaluator.h"

namespace testmap::python {
namespace {

// Items of `v` without repeats, first occurrence first. Python iterates a
// set in hash order; every use the scanner meets (dtype lists, `x in s`,
// set arithmetic) is insensitive to that order.
bool Distinct(const Value& v, Value* out) {
  if (v.kind != Value::Kind::kList) return false;
  std::vector<Value> items;
  for (const Value& item : v.items) {
    bool seen = false;
    for (const Value& kept : items) {
      bool known;
      if (PythonEquals(item, kept, &known)) seen = true;
      if (!known) return false;
    }
    if (!seen) items.push_back(item);
  }
  *out = Value::List(std::move(items));
  return true;
}

// itertools.combinations / combinations_with_replacement, in their order.
void Combinations(const std::vector<Value>& pool, size_t r, bool replacement, size_t start,
                  std::vector<Value>& prefix, std::vector<Value>& out, bool* too_many) {
  if (*too_many) return;
  if (prefix.size() == r) {
    out.push_back(Value::List(prefix));
    if (out.size() > Evaluator::kMaxItems) *too_many = true;
    return;
  }
  for (size_t i = start; i < pool.size(); ++i) {
    prefix.push_back(pool[i]);
    Combinations(pool, r, replacement, replacement ? i : i + 1, prefix, out, too_many);
    prefix.pop_back();
  }
}

}  // namespace

bool Evaluator::CallBuiltin(const std::string& q, const Args& args, TSNode n, Value* out) {
  const std::vector<Value>& pos = args.positional;
  auto unknown = [&] {
    // What len, isinstance and hasattr give is an int or a bool even then.
    *out = q == "len" || q == "isinstance" || q == "hasattr" ? Value::UnknownPrimitive(Text(n))
                                                             : Value::Unknown(Text(n));
    return true;
  };
  auto all_lists = [&] {
    return std::all_of(pos.begin(), pos.end(),
                       [](const Value& v) { return v.kind == Value::Kind::kList; });
  };
  if (q == "range") {
    if (pos.empty() || pos.size() > 3 || !args.keyword.empty()) return unknown();
    int64_t b[3] = {0, 0, 1};
    for (const auto& a : pos)
      if (a.kind != Value::Kind::kInt) return unknown();
    if (pos.size() == 1)
      b[1] = pos[0].i;
    else
      for (size_t i = 0; i < pos.size(); ++i) b[i] = pos[i].i;
    if (b[2] == 0) return unknown();
    std::vector<Value> items;
    for (int64_t i = b[0]; b[2] > 0 ? i < b[1] : i > b[1]; i += b[2]) {
      if (items.size() > kMaxItems) return unknown();
      items.push_back(Value::Int(i));
    }
    *out = Value::List(std::move(items));
    return true;
  }
  if (q == "list" || q == "tuple") {
    if (pos.empty() && args.keyword.empty()) {
      *out = Value::List({});
      return true;
    }
    if (pos.size() != 1 || pos[0].kind != Value::Kind::kList) return unknown();
    *out = pos[0];
    return true;
  }
  if (q == "set" || q == "frozenset") {
    if (pos.empty()) {
      *out = Value::List({});
      return true;
    }
    if (pos.size() != 1 || !Distinct(pos[0], out)) return unknown();
    return true;
  }
  if (q == "len") {
    if (pos.size() == 1 && pos[0].kind == Value::Kind::kStr) {
      // A str's length is in code points (its text is UTF-8, every escape
      // decoded): the bytes that do not continue a code point.
      *out = Value::Int(std::count_if(pos[0].text.begin(), pos[0].text.end(), [](char c) {
        return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
      }));
      return true;
    }
    if (pos.size() != 1 || pos[0].kind != Value::Kind::kList) return unknown();
    *out = Value::Int(static_cast<int64_t>(pos[0].items.size()));
    return true;
  }
  if (q == "isinstance") {
    bool known;
    if (pos.size() != 2) return unknown();
    bool r = IsInstance(pos[0], pos[1], &known);
    if (!known) return unknown();
    *out = Value::Bool(r);
    return true;
  }
  if (q == "hasattr" || q == "getattr") {
    if (pos.size() < 2 || pos.size() > (q == "getattr" ? 3u : 2u) ||
        pos[1].kind != Value::Kind::kStr)
      return unknown();
    bool exists = false;
    Value v;
    if (pos[0].kind == Value::Kind::kModule && pos[0].text.rfind("torch.ops.", 0) == 0) {
      const torch_snapshot::TorchSnapshot* s = snapshot();
      if (!s || s->operators.empty()) return unknown();
      v = TorchOpsMember(pos[0].text, pos[1].text, &exists);
    } else {
      // Elsewhere only what is known to be there: an unknown member may
      // still exist.
      v = AttributeOf(pos[0], pos[1].text);
      exists = v.known();
      if (!exists) return unknown();
    }
    if (q == "hasattr") {
      *out = Value::Bool(exists);
    } else if (exists) {
      *out = std::move(v);
    } else if (pos.size() == 3) {
      *out = pos[2];
    } else {
      return unknown();  // AttributeError
    }
    return true;
  }
  if (q == "filter") {
    if (pos.size() != 2 || pos[1].kind != Value::Kind::kList) return unknown();
    std::vector<Value> kept;
    bool all_known;
    if (CompiledFilter(pos[0], pos[1].items, &kept, &all_known)) {
      if (!all_known) return unknown();
      *out = Value::List(std::move(kept));
      return true;
    }
    for (const auto& item : pos[1].items) {
      bool known;
      bool keep = Truthy(pos[0].kind == Value::Kind::kNone ? item : Call(pos[0], {item}), &known);
      if (!known) return unknown();
      if (keep) kept.push_back(item);
    }
    *out = Value::List(std::move(kept));
    return true;
  }
  if (q == "torch.device") {
    if (pos.empty() || pos[0].kind != Value::Kind::kStr) return unknown();
    *out = Value::Str(pos[0].text);
    out->kind = Value::Kind::kDevice;
    return true;
  }
  if (q == "itertools.product" || q == "product") {
    if (pos.empty() || !all_lists() || !args.keyword.empty()) return unknown();
    std::vector<Value> acc{Value::List({})};
    for (const auto& seq : pos) {
      std::vector<Value> next;
      for (const auto& prefix : acc)
        for (const auto& item : seq.items) {
          Value t = prefix;
          t.items.push_back(item);
          next.push_back(std::move(t));
          if (next.size() > kMaxItems) return unknown();
        }
      acc = std::move(next);
    }
    *out = Value::List(std::move(acc));
    return true;
  }
  if (q == "itertools.combinations" || q == "itertools.combinations_with_replacement" ||
      q == "combinations" || q == "combinations_with_replacement") {
    if (pos.size() != 2 || pos[0].kind != Value::Kind::kList || pos[1].kind != Value::Kind::kInt ||
        pos[1].i < 0)
      return unknown();
    std::vector<Value> prefix, items;
    bool too_many = false;
    Combinations(pos[0].items, static_cast<size_t>(pos[1].i),
                 q.find("with_replacement") != std::string::npos, 0, prefix, items, &too_many);
    if (too_many) return unknown();
    *out = Value::List(std::move(items));
    return true;
  }
  if (q == "itertools.chain" || q == "chain" || q == "itertools.chain.from_iterable" ||
      q == "chain.from_iterable") {
    std::vector<Value> parts = pos;
    if (q.find("from_iterable") != std::string::npos) {
      if (pos.size() != 1 || pos[0].kind != Value::Kind::kList) return unknown();
      parts = pos[0].items;
    }
    std::vector<Value> items;
    for (const Value& p : parts) {
      if (p.kind != Value::Kind::kList) return unknown();
      items.insert(items.end(), p.items.begin(), p.items.end());
      if (items.size() > kMaxItems) return unknown();
    }
    *out = Value::List(std::move(items));
    return true;
  }
  if (q == "inspect.signature") {
    if (pos.size() != 1 || pos[0].kind != Value::Kind::kClass) return unknown();
    out->kind = Value::Kind::kSignature;
    out->text = pos[0].text;
    return true;
  }
  if (q == "importlib.import_module") {
    if (pos.size() != 1 || pos[0].kind != Value::Kind::kStr) return unknown();
    out->kind = Value::Kind::kModule;
    out->text = pos[0].text;
    return true;
  }
  std::string last = LastComponent(q);
  if (last == "subtest" && FromTorchTesting(q) && !pos.empty()) {
    Value v;
    v.kind = Value::Kind::kSubtest;
    v.items.push_back(pos[0]);
    if (auto name = args.keyword.find("name"); name != args.keyword.end()) {
      if (name->second.kind == Value::Kind::kStr)
        v.text = name->second.text;
      else if (name->second.kind != Value::Kind::kNone)
        return unknown();
    }
    if (auto d = args.keyword_nodes.find("decorators"); d != args.keyword_nodes.end())
      v.decorators.push_back(Text(d->second));
    if (pos.size() > 1) v.decorators.push_back(Text(n));
    *out = std::move(v);
    return true;
  }
  if (q == "pytest.param") {
    Value v;
    v.kind = Value::Kind::kParam;
    v.items = pos;
    if (auto id = args.keyword.find("id"); id != args.keyword.end()) {
      v.has_id = true;
      if (id->second.kind == Value::Kind::kStr)
        v.text = id->second.text;
      else if (id->second.kind != Value::Kind::kNone)
        return unknown();
      else
        v.has_id = false;
    }
    if (auto m = args.keyword_nodes.find("marks"); m != args.keyword_nodes.end())
      v.decorators.push_back(Text(m->second));
    *out = std::move(v);
    return true;
  }
  return false;
}

}  // namespace testmap::python
