#include "analyzers/backend/schema_registry.h"

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

// One argument or return: `Tensor(a!) self`, `Scalar alpha=1`, `Tensor`,
// `Tensor(a!)[] out`.
SchemaArgument Argument(std::string_view text, bool kwarg_only, bool named) {
  SchemaArgument a;
  a.kwarg_only = kwarg_only;
  std::string_view decl = text.substr(0, text.find('='));
  decl = Trim(decl);
  // The name is the last word, unless the type stands alone (returns).
  std::string_view type = decl;
  size_t space = decl.rfind(' ');
  if (space != std::string_view::npos && (named || decl.back() != ')')) {
    a.name = std::string(Trim(decl.substr(space + 1)));
    type = Trim(decl.substr(0, space));
  }
  // The alias annotation sits in parentheses after the type's base name.
  std::string clean;
  for (size_t i = 0; i < type.size(); ++i) {
    if (type[i] == '(') {
      size_t close = type.find(')', i);
      std::string_view alias =
          type.substr(i, close == std::string_view::npos ? std::string_view::npos : close - i);
      a.has_alias = true;
      a.is_write = alias.find('!') != std::string_view::npos;
      if (close == std::string_view::npos) break;
      i = close;
      continue;
    }
    clean += type[i];
  }
  a.type = clean;
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
    out->arguments.push_back(Argument(part, kwarg_only, true));
  }
  size_t arrow = text.find("->", close);
  if (arrow != std::string_view::npos) {
    std::string_view ret = Trim(text.substr(arrow + 2));
    if (!ret.empty() && ret.front() == '(' && ret.back() == ')')
      ret = ret.substr(1, ret.size() - 2);
    for (std::string_view part : SplitTopLevel(ret))
      out->returns.push_back(Argument(part, false, false));
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
