#include "analyzers/backend/schema_registry.h"

#include <map>

#include "analyzers/torch_snapshot/torch_snapshot.h"

namespace testmap::backend {
namespace {

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

// Splits at top-level commas: brackets and quoted defaults (`str
// rounding_mode="trunc"`, `int[2] padding=[0, 0]`) stay whole.
std::vector<std::string_view> SplitTopLevel(std::string_view s) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '(' || c == '[') {
      ++depth;
    } else if (c == ')' || c == ']') {
      --depth;
    } else if (c == ',' && depth == 0) {
      parts.push_back(Trim(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  if (std::string_view last = Trim(s.substr(start)); !last.empty()) parts.push_back(last);
  return parts;
}

// Types as torch's str(arg.type) prints them: `Scalar` -> `number`,
// `int[2]?` -> `Optional[List[int]]`, `Dict(str, t)` -> `Dict[str, t]`,
// `(str, t)[]` -> `List[Tuple[str, t]]`. Alias annotations (`Tensor(a!)`)
// are taken off first.
std::string RenderType(std::string_view t) {
  t = Trim(t);
  if (t.empty()) return "";
  if (t.back() == '?') return "Optional[" + RenderType(t.substr(0, t.size() - 1)) + "]";
  if (t.back() == ']') {
    size_t open = t.rfind('[');
    if (open != std::string_view::npos) return "List[" + RenderType(t.substr(0, open)) + "]";
  }
  auto join = [](std::string_view inner) {
    std::string out;
    for (std::string_view part : SplitTopLevel(inner))
      out += (out.empty() ? "" : ", ") + RenderType(part);
    return out;
  };
  if (t.front() == '(' && t.back() == ')') return "Tuple[" + join(t.substr(1, t.size() - 2)) + "]";
  size_t paren = t.find('(');
  if (paren != std::string_view::npos && t.back() == ')')
    return std::string(t.substr(0, paren)) + "[" + join(t.substr(paren + 1, t.size() - paren - 2)) +
           "]";
  static const std::map<std::string_view, std::string_view> kRenamed{
      {"Scalar", "number"}, {"ScalarType", "int"}, {"Layout", "int"},    {"MemoryFormat", "int"},
      {"SymInt", "int"},    {"SymBool", "bool"},   {"SymFloat", "float"}};
  auto it = kRenamed.find(t);
  return std::string(it == kRenamed.end() ? t : it->second);
}

// Generic types whose parentheses hold type arguments, not an alias set.
bool IsGeneric(std::string_view base) {
  return base == "Dict" || base == "Future" || base == "RRef" || base == "Await" ||
         base == "Union" || base.empty();
}

// One argument or return: `Tensor(a!) self`, `Scalar alpha=1`, `Tensor`,
// `Tensor(a!)[] out`.
SchemaArgument Argument(std::string_view text, bool kwarg_only, bool named) {
  SchemaArgument a;
  a.kwarg_only = kwarg_only;
  // The declaration without its default (which may hold '=' in a string).
  std::string_view decl = text;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '(' || text[i] == '[') ++depth;
    if (text[i] == ')' || text[i] == ']') --depth;
    if (text[i] == '=' && depth == 0) {
      decl = text.substr(0, i);
      break;
    }
  }
  decl = Trim(decl);
  // The name is the last word, when the last word is not part of the type.
  std::string_view type = decl;
  size_t space = decl.rfind(' ');
  if (named && space != std::string_view::npos && decl.back() != ')' && decl.back() != ']' &&
      decl.back() != '?') {
    a.name = std::string(Trim(decl.substr(space + 1)));
    type = Trim(decl.substr(0, space));
  } else if (!named && space != std::string_view::npos) {
    std::string_view last = decl.substr(space + 1);
    bool word = !last.empty() && last.find_first_of("()[]?") == std::string_view::npos;
    if (word && decl.substr(0, space).find_first_not_of(" ") != std::string_view::npos &&
        decl[space - 1] != ',' && decl[space - 1] != '>') {
      a.name = std::string(last);
      type = Trim(decl.substr(0, space));
    }
  }
  // An alias annotation: the parenthesized group right after the base
  // type, or after a generic type's own group (`Dict(str, t)(a!)`).
  std::string clean(type);
  size_t paren = clean.find('(');
  if (paren != std::string::npos && IsGeneric(std::string_view(clean).substr(0, paren))) {
    int depth = 0;
    size_t end = paren;
    for (; end < clean.size(); ++end) {
      if (clean[end] == '(') ++depth;
      if (clean[end] == ')' && --depth == 0) break;
    }
    paren = end + 1 < clean.size() && clean[end + 1] == '(' ? end + 1 : std::string::npos;
  }
  if (paren != std::string::npos) {
    size_t close = clean.find(')', paren);
    std::string alias =
        clean.substr(paren, close == std::string::npos ? std::string::npos : close - paren);
    a.has_alias = true;
    a.is_write = alias.find('!') != std::string::npos;
    clean.erase(paren, close == std::string::npos ? std::string::npos : close - paren + 1);
  }
  a.type = RenderType(clean);
  a.is_out = a.kwarg_only && a.is_write;
  return a;
}

}  // namespace

bool ParseSchema(std::string_view text, OpSchema* out) {
  size_t open = text.find('(');
  if (open == std::string_view::npos) return false;
  std::string_view name = Trim(text.substr(0, open));
  int depth = 0;
  size_t close = std::string_view::npos;
  for (size_t i = open; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) {
      close = i;
      break;
    }
  }
  if (close == std::string_view::npos) return false;
  size_t dot = name.find('.', name.find("::") == std::string_view::npos ? 0 : name.find("::") + 2);
  out->name = std::string(name.substr(0, dot));
  out->overload = dot == std::string_view::npos ? "" : std::string(name.substr(dot + 1));
  out->text = std::string(text);
  out->arguments.clear();
  out->returns.clear();
  bool kwarg_only = false;
  for (std::string_view part : SplitTopLevel(text.substr(open + 1, close - open - 1))) {
    if (part == "*") {
      kwarg_only = true;
      continue;
    }
    if (part == "...") continue;  // varargs: torch lists no argument
    out->arguments.push_back(Argument(part, kwarg_only, true));
  }
  size_t arrow = text.find("->", close);
  if (arrow != std::string_view::npos) {
    std::string_view ret = Trim(text.substr(arrow + 2));
    if (!ret.empty() && ret.front() == '(' && ret.back() == ')')
      ret = ret.substr(1, ret.size() - 2);
    for (std::string_view part : SplitTopLevel(ret))
      if (part != "...") out->returns.push_back(Argument(part, false, false));
  }
  out->is_mutable = false;
  for (const auto& a : out->arguments) out->is_mutable = out->is_mutable || a.is_write;
  return true;
}

SchemaRegistry SchemaRegistry::FromSnapshot(const torch_snapshot::TorchSnapshot& snapshot) {
  SchemaRegistry r;
  r.snapshot_ = &snapshot;
  r.schemas_.reserve(snapshot.operators.size());
  for (const auto& op : snapshot.operators) {
    OpSchema s;
    if (op.schema.empty() || !ParseSchema(op.schema, &s)) {
      // An operator without a parsable schema still exists by name.
      size_t ns = op.name.find("::");
      size_t dot = op.name.find('.', ns == std::string::npos ? 0 : ns + 2);
      s.name = op.name.substr(0, dot);
      s.overload = dot == std::string::npos ? "" : op.name.substr(dot + 1);
      s.text = op.schema;
    }
    s.snapshot_entry = &op;
    r.schemas_.push_back(std::move(s));
  }
  r.Index(0);
  return r;
}

void SchemaRegistry::Index(size_t from) {
  for (size_t i = from; i < schemas_.size(); ++i) {
    by_packet_[schemas_[i].name].push_back(i);
    by_name_.emplace(schemas_[i].Canonical(), i);
  }
}

void SchemaRegistry::AddTorchScriptOnly(const std::vector<std::string>& schemas) {
  size_t from = schemas_.size();
  for (const auto& text : schemas) {
    OpSchema s;
    if (!ParseSchema(text, &s) || by_name_.count(s.Canonical())) continue;
    s.torchscript_only = true;
    schemas_.push_back(std::move(s));
  }
  Index(from);
}

std::vector<const OpSchema*> SchemaRegistry::Overloads(const std::string& packet) const {
  std::vector<const OpSchema*> out;
  auto it = by_packet_.find(packet);
  if (it != by_packet_.end())
    for (size_t i : it->second) out.push_back(&schemas_[i]);
  return out;
}

const OpSchema* SchemaRegistry::Find(const std::string& canonical) const {
  auto it = by_name_.find(canonical);
  return it == by_name_.end() ? nullptr : &schemas_[it->second];
}

std::optional<bool> SchemaRegistry::HasKernel(const std::string& canonical,
                                              const std::string& key) const {
  const OpSchema* s = Find(canonical);
  if (s && s->torchscript_only) return false;
  if (!s || !snapshot_) return std::nullopt;
  return snapshot_->HasKernel(*static_cast<const torch_snapshot::OperatorEntry*>(s->snapshot_entry),
                              key);
}

std::vector<std::string> SchemaRegistry::Names() const {
  std::vector<std::string> out;
  out.reserve(schemas_.size());
  for (const auto& s : schemas_)
    if (!s.torchscript_only) out.push_back(s.Canonical());
  return out;
}

}  // namespace testmap::backend
