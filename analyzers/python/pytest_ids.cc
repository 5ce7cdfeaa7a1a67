#include "analyzers/python/pytest_ids.h"

#include <cstdio>
#include <map>
#include <set>

namespace testmap::python {
namespace {

std::vector<std::string> SplitNames(const Value& v, bool* ok) {
  std::vector<std::string> out;
  *ok = true;
  if (v.kind == Value::Kind::kStr) {
    std::string cur;
    for (char c : v.text + ",") {
      if (c != ',') {
        cur += c;
        continue;
      }
      size_t b = cur.find_first_not_of(" \t"), e = cur.find_last_not_of(" \t");
      if (b != std::string::npos) out.push_back(cur.substr(b, e - b + 1));
      cur.clear();
    }
    return out;
  }
  if (v.kind == Value::Kind::kList) {
    for (const auto& item : v.items) {
      if (item.kind != Value::Kind::kStr)
        *ok = false;
      else
        out.push_back(item.text);
    }
    return out;
  }
  *ok = false;
  return out;
}

// _idval_from_value, or empty when pytest would fall back to argname+idx.
bool IdFromValue(const Value& v, std::string* out) {
  switch (v.kind) {
    case Value::Kind::kStr:
      if (v.text.size() > 100) return false;  // "short" long-string strategy
      *out = PytestAsciiEscaped(v.text);
      return true;
    case Value::Kind::kNone:
    case Value::Kind::kBool:
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      return PythonStr(v, out);
    case Value::Kind::kEnum:
      *out = v.text;
      return true;
    case Value::Kind::kClass:
      *out = v.text.substr(v.text.rfind('.') + 1);
      return true;
    case Value::Kind::kNamed:  // its __name__
    case Value::Kind::kModule:
      *out = v.text;
      return true;
    case Value::Kind::kCallable:
      // Functions have a __name__; lambdas are "<lambda>".
      *out = Is(v.node, "lambda") ? "<lambda>" : v.text;
      return true;
    case Value::Kind::kUnknown: {
      // A bare name or dotted attribute most likely names a class or
      // function, whose __name__ is its last component.
      const std::string& t = v.text;
      if (t.empty()) return false;
      for (char c : t)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return false;
      if (std::isdigit(static_cast<unsigned char>(t[0]))) return false;
      size_t dot = t.rfind('.');
      *out = dot == std::string::npos ? t : t.substr(dot + 1);
      return true;
    }
    default:
      return false;
  }
}

// make_unique_parameterset_ids: duplicates get a counter suffix.
void MakeUnique(std::vector<std::string>& ids) {
  std::map<std::string, int> counts;
  for (const auto& id : ids) ++counts[id];
  std::set<std::string> all(ids.begin(), ids.end());
  std::map<std::string, int> next;
  for (auto& id : ids) {
    if (counts[id] <= 1) continue;
    std::string sep = !id.empty() && std::isdigit(static_cast<unsigned char>(id.back())) ? "_" : "";
    std::string base = id;
    std::string candidate = base + sep + std::to_string(next[base]);
    while (all.count(candidate)) candidate = base + sep + std::to_string(++next[base]);
    id = candidate;
    ++next[base];
  }
}

}  // namespace

std::string PytestAsciiEscaped(const std::string& s) {
  std::string out;
  char buf[16];
  for (size_t i = 0; i < s.size();) {
    unsigned char c = s[i];
    uint32_t cp = c;
    int len = 1;
    if (c >= 0x80) {
      len = (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : 4;
      cp = c & (0xFF >> (len + 1));
      for (int k = 1; k < len && i + k < s.size(); ++k) cp = (cp << 6) | (s[i + k] & 0x3F);
    }
    i += len;
    if (cp == '\\')
      out += "\\\\";
    else if (cp == '\n')
      out += "\\n";
    else if (cp == '\t')
      out += "\\t";
    else if (cp == '\r')
      out += "\\r";
    else if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0x100)) {
      std::snprintf(buf, sizeof buf, "\\x%02x", cp);
      out += buf;
    } else if (cp >= 0x100 && cp < 0x10000) {
      std::snprintf(buf, sizeof buf, "\\u%04x", cp);
      out += buf;
    } else if (cp >= 0x10000) {
      std::snprintf(buf, sizeof buf, "\\U%08x", cp);
      out += buf;
    } else {
      out += static_cast<char>(cp);
    }
  }
  return out;
}

PytestExpansion ExpandPytestParametrize(Evaluator& ev,
                                        const std::vector<TSNode>& function_decorators,
                                        const std::vector<TSNode>& class_decorators) {
  PytestExpansion ex;
  ex.cases.push_back({});
  // Marks apply in iteration order: the function's own (closest to `def`
  // first), then the class's; each one's ids append with "-".
  std::vector<TSNode> marks(function_decorators.rbegin(), function_decorators.rend());
  marks.insert(marks.end(), class_decorators.rbegin(), class_decorators.rend());
  for (TSNode d : marks) {
    if (!Is(d, "call")) continue;
    std::string q = ev.QualifiedName(Field(d, "function"));
    if (q != "pytest.mark.parametrize") continue;
    int line = ParsedModule::FirstLine(d);
    uint64_t misses = ev.snapshot_misses();
    Evaluator::Args args = ev.EvalArgs(d);
    if (ev.snapshot_misses() != misses) {
      // torch.float32 without torch's metadata would print as `dtype0`.
      ex.problems.push_back({line, "these tests need torch's metadata, which is unavailable: " +
                                       ev.Text(d).substr(0, 120)});
      return ex;
    }
    auto arg = [&](size_t pos, const char* kw) -> const Value* {
      if (args.positional.size() > pos) return &args.positional[pos];
      auto it = args.keyword.find(kw);
      return it == args.keyword.end() ? nullptr : &it->second;
    };
    const Value* names_v = arg(0, "argnames");
    const Value* values_v = arg(1, "argvalues");
    const Value* ids_v = arg(2, "ids");
    bool ok = names_v != nullptr;
    std::vector<std::string> names = ok ? SplitNames(*names_v, &ok) : std::vector<std::string>{};
    if (!ok || names.empty()) {
      ex.problems.push_back({line, "cannot evaluate argnames of " + ev.Text(d)});
      return ex;
    }
    if (!values_v || values_v->kind != Value::Kind::kList) {
      ex.problems.push_back(
          {line, "cannot evaluate argvalues `" + (values_v ? values_v->text : "") + "`"});
      return ex;
    }
    if (values_v->items.empty()) {
      ex.problems.push_back(
          {line, "empty argvalues: pytest collects one skipped placeholder test"});
      return ex;
    }
    std::vector<std::string> ids;
    std::vector<PytestCase> sets;
    for (size_t idx = 0; idx < values_v->items.size(); ++idx) {
      const Value& item = values_v->items[idx];
      PytestCase c;
      std::vector<Value> vals;
      std::string explicit_id;
      bool has_explicit = false;
      if (item.kind == Value::Kind::kParam) {
        vals = item.items;
        c.marks = item.decorators;
        if (item.has_id) explicit_id = item.text, has_explicit = true;
      } else if (names.size() == 1) {
        vals = {item};
      } else if (item.kind == Value::Kind::kList) {
        vals = item.items;
      } else {
        ex.problems.push_back({line, "cannot evaluate parameter set `" + item.text + "`"});
        return ex;
      }
      if (vals.size() != names.size()) {
        ex.problems.push_back({line, "parameter set of the wrong size (collection error)"});
        return ex;
      }
      for (size_t k = 0; k < names.size(); ++k) c.values.push_back({names[k], vals[k]});
      std::string id;
      if (has_explicit) {
        id = explicit_id;
      } else if (ids_v && ids_v->kind == Value::Kind::kList && idx < ids_v->items.size() &&
                 ids_v->items[idx].kind != Value::Kind::kNone) {
        if (!IdFromValue(ids_v->items[idx], &id)) {
          ex.problems.push_back({line, "cannot evaluate id `" + ids_v->items[idx].text + "`"});
          return ex;
        }
      } else {
        for (size_t k = 0; k < vals.size(); ++k) {
          std::string part;
          bool got = false;
          if (ids_v &&
              (ids_v->kind == Value::Kind::kCallable || ids_v->kind == Value::Kind::kBuiltin)) {
            Value r = ev.Call(*ids_v, {vals[k]});
            if (!r.known()) {
              ex.problems.push_back({line, "cannot evaluate ids function " + ids_v->text});
              return ex;
            }
            got = r.kind != Value::Kind::kNone && IdFromValue(r, &part);
          } else if (ids_v && ids_v->kind != Value::Kind::kList &&
                     ids_v->kind != Value::Kind::kNone) {
            ex.problems.push_back({line, "cannot evaluate ids `" + ids_v->text + "`"});
            return ex;
          }
          if (!got && vals[k].kind == Value::Kind::kUnknown && vals[k].primitive) {
            ex.problems.push_back({line, "cannot evaluate parameter value `" + vals[k].text +
                                             "` (its id is its value)"});
            return ex;
          }
          if (!got && !IdFromValue(vals[k], &part)) part = names[k] + std::to_string(idx);
          id += (k ? "-" : "") + part;
        }
      }
      ids.push_back(id);
      sets.push_back(std::move(c));
    }
    MakeUnique(ids);
    std::vector<PytestCase> combined;
    for (const auto& prev : ex.cases)
      for (size_t i = 0; i < sets.size(); ++i) {
        PytestCase c = prev;
        c.id += (c.id.empty() ? "" : "-") + ids[i];
        c.values.insert(c.values.end(), sets[i].values.begin(), sets[i].values.end());
        c.marks.insert(c.marks.end(), sets[i].marks.begin(), sets[i].marks.end());
        combined.push_back(std::move(c));
      }
    ex.cases = std::move(combined);
    ex.parametrized = true;
  }
  return ex;
}

}  // namespace testmap::python
