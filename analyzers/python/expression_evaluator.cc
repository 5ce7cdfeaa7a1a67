#include "analyzers/python/expression_evaluator.h"

#include <algorithm>
#include <cstdlib>

#include "analyzers/python/python_arithmetic.h"

namespace testmap::python {
namespace {

constexpr int kMaxDepth = 64;

// Appends code point `cp` as UTF-8 (the text of every str value).
void AppendUtf8(uint32_t cp, std::string& out) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Decodes a Python str literal's body as Python does (escapes unless raw),
// or nullopt where it cannot here: `\N{name}` (no Unicode name table), a
// malformed `\x`/`\u`/`\U` (a SyntaxError), a lone surrogate. An
// escape Python does not know stays as written, backslash included.
std::optional<std::string> Unescape(std::string_view body, bool raw) {
  if (raw) return std::string(body);
  std::string out;
  auto hex = [&](size_t at, size_t digits, uint32_t* cp) {
    if (at + digits > body.size()) return false;
    *cp = 0;
    for (size_t k = at; k < at + digits; ++k) {
      char h = body[k];
      int d = h >= '0' && h <= '9'   ? h - '0'
              : h >= 'a' && h <= 'f' ? h - 'a' + 10
              : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                     : -1;
      if (d < 0) return false;
      *cp = *cp * 16 + static_cast<uint32_t>(d);
    }
    return true;
  };
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\' || i + 1 == body.size()) {
      out += c;
      continue;
    }
    char e = body[++i];
    uint32_t cp = 0;
    switch (e) {
      case '\n':
        break;  // line continuation
      case '\r':
        if (i + 1 < body.size() && body[i + 1] == '\n') ++i;
        break;
      case '\\':
      case '\'':
      case '"':
        out += e;
        break;
      case 'a':
        out += '\a';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'v':
        out += '\v';
        break;
      case 'x':
      case 'u':
      case 'U': {
        size_t digits = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        if (!hex(i + 1, digits, &cp) || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
          return std::nullopt;
        AppendUtf8(cp, out);
        i += digits;
        break;
      }
      case 'N':
        return std::nullopt;
      default:
        if (e >= '0' && e <= '7') {  // up to three octal digits
          size_t k = i;
          for (; k < body.size() && k < i + 3 && body[k] >= '0' && body[k] <= '7'; ++k)
            cp = cp * 8 + static_cast<uint32_t>(body[k] - '0');
          AppendUtf8(cp, out);
          i = k - 1;
        } else {
          out += '\\';
          out += e;
        }
    }
  }
  return out;
}

}  // namespace

std::string_view LastComponentView(std::string_view dotted) {
  size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

std::string LastComponent(const std::string& dotted) {
  return std::string(LastComponentView(dotted));
}

bool FromTorchTesting(const std::string& qualified) {
  return qualified.rfind("torch.testing", 0) == 0 || qualified.find('.') == std::string::npos;
}

bool PythonEquals(const Value& a, const Value& b, bool* known) {
  using K = Value::Kind;
  *known = a.known() && b.known();
  if (!*known) return false;
  auto numeric = [](const Value& v) {
    return v.kind == K::kInt || v.kind == K::kBool || v.kind == K::kFloat;
  };
  if (numeric(a) && numeric(b)) {
    auto as_double = [](const Value& v) {
      return v.kind == K::kFloat  ? v.f
             : v.kind == K::kBool ? (v.b ? 1.0 : 0.0)
                                  : static_cast<double>(v.i);
    };
    return as_double(a) == as_double(b);
  }
  // An object the snapshot knows only as "not None" is unequal to None;
  // against anything else it is unknown.
  if (a.kind == K::kObject || b.kind == K::kObject || a.kind == K::kNamed || b.kind == K::kNamed) {
    *known = a.kind == K::kNone || b.kind == K::kNone;
    return false;
  }
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case K::kNone:
      return true;
    case K::kStr:
    case K::kDtype:
    case K::kDevice:
    case K::kClass:
      return a.text == b.text;
    case K::kEnum:  // and of one class, where both know theirs
      return a.text == b.text && (a.index < 0 || b.index < 0 || a.index == b.index);
    case K::kOpInfo:
    case K::kModuleInfo:
      return a.index == b.index;
    case K::kList:
      if (a.items.size() != b.items.size()) return false;
      for (size_t i = 0; i < a.items.size(); ++i)
        if (!PythonEquals(a.items[i], b.items[i], known)) return false;
      return true;
    default:
      *known = false;
      return false;
  }
}

bool Compare(const std::string& op, const Value& left, const Value& right, bool* known) {
  *known = true;
  bool result = false;
  if (op == "==" || op == "!=" || op == "is" || op == "is not") {
    result = PythonEquals(left, right, known);
    return op == "!=" || op == "is not" ? !result : result;
  }
  if (op == "in" || op == "not in") {
    if (right.kind == Value::Kind::kStr && left.kind == Value::Kind::kStr) {
      result = right.text.find(left.text) != std::string::npos;
    } else if (right.kind == Value::Kind::kList) {
      for (const auto& item : right.items) {
        bool k;
        if (PythonEquals(left, item, &k)) {
          result = true;
          break;
        }
        if (!k) *known = false;
      }
      if (result) *known = true;
    } else {
      *known = false;
    }
    return op == "not in" ? !result : result;
  }
  auto number = [](const Value& v) {
    return v.kind == Value::Kind::kInt || v.kind == Value::Kind::kFloat;
  };
  if (number(left) && number(right)) {
    double x = left.kind == Value::Kind::kInt ? left.i : left.f;
    double y = right.kind == Value::Kind::kInt ? right.i : right.f;
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
  }
  *known = false;
  return false;
}

Evaluator::Evaluator(const ParsedModule& module, const ModuleModel& model, SnapshotSource snapshot)
    : module_(module), model_(model), snapshot_source_(std::move(snapshot)) {}

const torch_snapshot::TorchSnapshot* Evaluator::snapshot() {
  if (!snapshot_loaded_) {
    snapshot_loaded_ = true;
    snapshot_ = snapshot_source_ ? snapshot_source_() : nullptr;
  }
  if (!snapshot_) {
    snapshot_missing_ = true;
    ++snapshot_misses_;
  }
  return snapshot_;
}

const torch_snapshot::TorchSnapshot* Evaluator::snapshot_if_available() {
  if (!snapshot_loaded_) {
    snapshot_loaded_ = true;
    snapshot_ = snapshot_source_ ? snapshot_source_() : nullptr;
  }
  return snapshot_;
}

std::string Evaluator::QualifiedName(TSNode n) const {
  if (Is(n, "identifier")) {
    std::string name(module_.Text(n));
    auto it = model_.imports.find(name);
    return it != model_.imports.end() ? it->second : name;
  }
  if (Is(n, "attribute")) {
    std::string object = QualifiedName(Field(n, "object"));
    if (object.empty()) return "";
    return object + "." + std::string(module_.Text(Field(n, "attribute")));
  }
  return "";
}

TSNode Evaluator::PartialOf(TSNode callee) const {
  if (!Is(callee, "identifier")) return TSNode{};
  auto a = model_.assignments.find(std::string(module_.Text(callee)));
  if (a == model_.assignments.end() || !Is(a->second, "call")) return TSNode{};
  std::string q = QualifiedName(Field(a->second, "function"));
  if (q != "functools.partial") return TSNode{};
  TSNode list = Field(a->second, "arguments");
  if (ts_node_is_null(list) || ts_node_named_child_count(list) == 0) return TSNode{};
  TSNode first = ts_node_named_child(list, 0);
  return Is(first, "identifier") || Is(first, "attribute") ? a->second : TSNode{};
}

std::string Evaluator::CalleeName(TSNode call) {
  TSNode callee = Field(call, "function");
  TSNode partial = PartialOf(callee);
  if (ts_node_is_null(partial)) return QualifiedName(callee);
  return QualifiedName(ts_node_named_child(Field(partial, "arguments"), 0));
}

Evaluator::Args Evaluator::CallArgs(TSNode call, const Locals* locals) {
  TSNode partial = PartialOf(Field(call, "function"));
  Args args = EvalArgs(call, locals);
  if (ts_node_is_null(partial)) return args;
  Args bound = EvalArgs(partial, nullptr);
  bound.positional.erase(bound.positional.begin());  // the wrapped function
  bound.positional.insert(bound.positional.end(), args.positional.begin(), args.positional.end());
  for (auto& [k, v] : args.keyword) bound.keyword[k] = std::move(v);
  for (auto& [k, v] : args.keyword_nodes) bound.keyword_nodes[k] = v;
  return bound;
}

const Evaluator::Locals* Evaluator::ClassScope(const ClassDef& c) {
  auto [it, inserted] = class_scopes_.try_emplace(&c);
  if (inserted)
    for (const ClassMember& m : c.members)
      if (m.kind == ClassMember::Kind::kAttribute) {
        Value v = Eval(m.value, &it->second);
        it->second[m.name] = std::move(v);
      }
  return it->second.empty() ? nullptr : &it->second;
}

bool Evaluator::Mentions(TSNode n, const std::function<bool(const std::string&)>& is_name) const {
  return AnyNode(
      n, [&](TSNode d) { return Is(d, "identifier") && is_name(std::string(module_.Text(d))); });
}

Value Evaluator::Eval(TSNode n, const Locals* locals) {
  if (ts_node_is_null(n)) return Value::Unknown("");
  if (auto it = memo_.find(n.id); it != memo_.end()) return it->second;
  uint64_t reads = local_reads_;
  Value v = EvalUncached(n, locals);
  if (local_reads_ == reads) memo_.emplace(n.id, v);
  return v;
}

Value Evaluator::EvalUncached(TSNode n, const Locals* locals) {
  if (depth_ > kMaxDepth) return Value::Unknown(Text(n));
  ++depth_;
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};

  std::string_view type = ts_node_type(n);
  if (type == "integer") {
    std::string t;
    for (char c : module_.Text(n))
      if (c != '_') t += c;
    if (!t.empty() && (t.back() == 'j' || t.back() == 'J')) return Value::Unknown(Text(n));
    int base = 10;
    size_t skip = 0;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
      base = 16, skip = 2;
    else if (t.size() > 2 && t[0] == '0' && (t[1] == 'o' || t[1] == 'O'))
      base = 8, skip = 2;
    else if (t.size() > 2 && t[0] == '0' && (t[1] == 'b' || t[1] == 'B'))
      base = 2, skip = 2;
    errno = 0;
    long long v = std::strtoll(t.c_str() + skip, nullptr, base);
    if (errno == ERANGE) return Value::Unknown(Text(n));
    return Value::Int(v);
  }
  if (type == "float") {
    std::string t;
    for (char c : module_.Text(n))
      if (c != '_') t += c;
    if (!t.empty() && (t.back() == 'j' || t.back() == 'J')) return Value::Unknown(Text(n));
    return Value::Float(std::strtod(t.c_str(), nullptr));
  }
  if (type == "true") return Value::Bool(true);
  if (type == "false") return Value::Bool(false);
  if (type == "none") return Value::None();
  if (type == "string") return EvalString(n, locals);
  if (type == "concatenated_string") {
    std::string s;
    for (TSNode piece : NamedChildren(n)) {
      Value part = EvalString(piece, locals);
      if (part.kind != Value::Kind::kStr) return Value::Unknown(Text(n));
      s += part.text;
    }
    return Value::Str(s);
  }
  if (type == "identifier") return EvalName(Text(n), n, locals);
  if (type == "attribute") return EvalAttribute(n, locals);
  if (type == "call") return EvalCall(n, locals);
  if (type == "parenthesized_expression" && ts_node_named_child_count(n) == 1)
    return Eval(ts_node_named_child(n, 0), locals);
  if (type == "list" || type == "tuple" || type == "set" || type == "expression_list")
    return EvalSequence(n, locals);
  if (type == "list_comprehension" || type == "generator_expression" || type == "set_comprehension")
    return EvalComprehension(n, locals);
  if (type == "binary_operator") return EvalBinary(n, locals);
  if (type == "unary_operator") {
    Value v = Eval(Field(n, "argument"), locals);
    std::string op(module_.Text(Field(n, "operator")));
    Value out;
    if (NumberSign(op, v, Text(n), &out)) return out;
    return Value::Unknown(Text(n));
  }
  if (type == "comparison_operator") return EvalComparison(n, locals);
  if (type == "not_operator") {
    bool known;
    bool t = Truthy(Eval(Field(n, "argument"), locals), &known);
    return known ? Value::Bool(!t) : Value::UnknownPrimitive(Text(n));
  }
  if (type == "boolean_operator") {
    Value left = Eval(Field(n, "left"), locals);
    bool known;
    bool t = Truthy(left, &known);
    if (!known) return Value::Unknown(Text(n));
    std::string op(module_.Text(Field(n, "operator")));
    if ((op == "and" && !t) || (op == "or" && t)) return left;
    return Eval(Field(n, "right"), locals);
  }
  if (type == "conditional_expression" && ts_node_named_child_count(n) == 3) {
    bool known;
    bool t = Truthy(Eval(ts_node_named_child(n, 1), locals), &known);
    if (!known) return Value::Unknown(Text(n));
    return Eval(ts_node_named_child(n, t ? 0 : 2), locals);
  }
  if (type == "subscript") {
    Value v = Eval(Field(n, "value"), locals);
    TSNode sub = Field(n, "subscript");
    if (v.kind != Value::Kind::kList || ts_node_is_null(sub)) return Value::Unknown(Text(n));
    int64_t size = static_cast<int64_t>(v.items.size());
    if (Is(sub, "slice")) {
      int64_t bounds[2] = {0, size};
      int k = 0;
      for (TSNode ch : Children(sub)) {
        if (k >= 2) break;
        if (!ts_node_is_named(ch)) {
          if (module_.Text(ch) == ":") ++k;
          continue;
        }
        Value b = Eval(ch, locals);
        if (b.kind != Value::Kind::kInt) return Value::Unknown(Text(n));
        bounds[k] = b.i < 0 ? std::max<int64_t>(0, size + b.i) : std::min(b.i, size);
      }
      std::vector<Value> items;
      for (int64_t i = bounds[0]; i < bounds[1]; ++i) items.push_back(v.items[i]);
      return Value::List(std::move(items));
    }
    Value idx = Eval(sub, locals);
    if (idx.kind != Value::Kind::kInt) return Value::Unknown(Text(n));
    int64_t i = idx.i < 0 ? size + idx.i : idx.i;
    if (i < 0 || i >= size) return Value::Unknown(Text(n));
    return v.items[i];
  }
  if (type == "lambda") {
    Value v;
    v.kind = Value::Kind::kCallable;
    v.node = n;
    v.text = Text(n);
    return v;
  }
  return Value::Unknown(Text(n));
}

Value Evaluator::EvalString(TSNode n, const Locals* locals) {
  if (!Is(n, "string")) return Eval(n, locals);
  std::string_view text = module_.Text(n);
  size_t q = text.find_first_of("'\"");
  if (q == std::string_view::npos) return Value::Unknown(std::string(text));
  std::string prefix;
  for (char c : text.substr(0, q)) prefix += static_cast<char>(std::tolower(c));
  if (prefix.find('b') != std::string::npos) return Value::Unknown(std::string(text));
  bool raw = prefix.find('r') != std::string::npos;
  bool fstring = prefix.find('f') != std::string::npos;
  if (!fstring) {
    size_t quote_len = text.substr(q, 3) == "\"\"\"" || text.substr(q, 3) == "'''" ? 3 : 1;
    if (text.size() < q + 2 * quote_len) return Value::Unknown(std::string(text));
    auto decoded = Unescape(text.substr(q + quote_len, text.size() - q - 2 * quote_len), raw);
    return decoded ? Value::Str(*decoded) : Value::Unknown(std::string(text));
  }
  // f-string: literal parts come from the children between interpolations.
  std::string out;
  for (TSNode part : NamedChildren(n)) {
    if (Is(part, "string_content") || Is(part, "escape_sequence")) {
      auto decoded = Unescape(module_.Text(part), raw && Is(part, "string_content"));
      if (!decoded) return Value::Unknown(std::string(text));
      out += *decoded;
    } else if (Is(part, "interpolation")) {
      if (!ts_node_is_null(Field(part, "format_specifier")))
        return Value::Unknown(std::string(text));
      Value v = Eval(Field(part, "expression"), locals);
      TSNode conversion = Field(part, "type_conversion");
      std::string s;
      if (!ts_node_is_null(conversion) && module_.Text(conversion) == "!r" &&
          v.kind == Value::Kind::kStr) {
        s = "'" + v.text + "'";
      } else if (!PythonStr(v, &s)) {
        return Value::Unknown(std::string(text));
      }
      out += s;
    }
  }
  return Value::Str(out);
}

Value Evaluator::EvalName(const std::string& name, TSNode node, const Locals* locals) {
  if (locals) {
    auto it = locals->find(name);
    if (it != locals->end()) {
      ++local_reads_;
      return it->second;
    }
  }
  auto fn = model_.function_index.find(name);
  if (fn != model_.function_index.end()) {
    Value v;
    v.kind = Value::Kind::kCallable;
    v.node = model_.functions[fn->second].def;
    v.text = name;
    return v;
  }
  auto a = model_.assignments.find(name);
  if (a != model_.assignments.end() && !evaluating_.count(name)) {
    evaluating_.insert(name);
    Value v = Eval(a->second, nullptr);
    evaluating_.erase(name);
    return v;
  }
  auto imp = model_.imports.find(name);
  if (imp != model_.imports.end()) return EvalQualified(imp->second, node);
  if (name == "str" || name == "repr" || name == "int" || name == "float" || name == "bool") {
    Value v;
    v.kind = Value::Kind::kBuiltin;
    v.text = name;
    return v;
  }
  // Not bound in the module: Python looks in builtins (abs, max, Ellipsis).
  Value builtin;
  if (ExternalValue("builtins." + name, &builtin)) return builtin;
  return Value::Unknown(name);
}

bool Evaluator::SnapshotListNamed(const std::string& q, Value::Kind* kind,
                                  const std::vector<int>** indices) {
  // By module and name: opinfo.definitions.linalg's op_db is not
  // common_methods_invocations' op_db.
  if (q.rfind("torch.testing._internal.", 0) != 0) return false;
  const torch_snapshot::TorchSnapshot* s = snapshot();
  if (!s) return false;
  if (auto it = s->op_lists.find(q); it != s->op_lists.end()) {
    *kind = Value::Kind::kOpInfo;
    *indices = &it->second;
    return true;
  }
  if (auto it = s->module_lists.find(q); it != s->module_lists.end()) {
    *kind = Value::Kind::kModuleInfo;
    *indices = &it->second;
    return true;
  }
  return false;
}

bool Evaluator::SnapshotList(TSNode n, Value::Kind* kind, const std::vector<int>** indices) {
  if (Is(n, "identifier")) {
    std::string name = Text(n);
    if (model_.assignments.count(name) || model_.function_index.count(name) ||
        !model_.imports.count(name))
      return false;
  } else if (!Is(n, "attribute")) {
    return false;
  }
  return SnapshotListNamed(QualifiedName(n), kind, indices);
}

// Names imported from torch: dtypes, op/module lists, enum members.
Value Evaluator::EvalQualified(const std::string& q, TSNode node) {
  std::string last = LastComponent(q);
  if (q.rfind("torch.", 0) == 0 && q.find('.', 6) == std::string::npos) {
    if (const torch_snapshot::TorchSnapshot* s = snapshot()) {
      auto it = s->dtype_aliases.find(last);
      if (it != s->dtype_aliases.end()) return Value::Dtype(it->second);
    }
  }
  Value::Kind kind;
  const std::vector<int>* indices = nullptr;
  if (SnapshotListNamed(q, &kind, &indices)) {
    const torch_snapshot::TorchSnapshot* s = snapshot();
    std::vector<Value> items;
    items.reserve(indices->size());
    for (int i : *indices) {
      Value v;
      v.kind = kind;
      v.index = i;
      // How test names spell it.
      v.text =
          kind == Value::Kind::kOpInfo ? s->ops[i].formatted_name : s->modules[i].formatted_name;
      items.push_back(std::move(v));
    }
    return Value::List(std::move(items));
  }
  Value constant;
  if (TorchConstant(q, &constant)) return constant;
  // torch.ops.aten: its packets and overloads are the operator registry's.
  if (q.rfind("torch.ops.", 0) == 0 && q.find('.', 10) == std::string::npos) {
    Value ns;
    ns.kind = Value::Kind::kModule;
    ns.text = q;
    return ns;
  }
  // Classes: torch.nn's modules and torch's test classes (UnaryUfuncInfo).
  if ((q.rfind("torch.nn.", 0) == 0 || q.rfind("torch.testing.", 0) == 0) && !last.empty() &&
      std::isupper(static_cast<unsigned char>(last[0])) && last.find('_') == std::string::npos) {
    Value c = Value::Str(q);
    c.kind = Value::Kind::kClass;
    return c;
  }
  size_t dot = q.rfind('.');
  if (dot != std::string::npos) {
    std::string owner = LastComponent(q.substr(0, dot));
    if (owner == "OpDTypes" || owner == "TrainEvalMode" || q.rfind("torch.Tag.", 0) == 0) {
      Value v;
      v.kind = Value::Kind::kEnum;
      v.text = owner + "." + last;
      return v;
    }
  }
  Value external;
  if (ExternalValue(q, &external)) return external;
  return Value::Unknown(ts_node_is_null(node) ? q : Text(node));
}

Value Evaluator::EvalAttribute(TSNode n, const Locals* locals) {
  TSNode object = Field(n, "object");
  std::string attr(module_.Text(Field(n, "attribute")));
  // Attributes of values (op.name) before names through imports (torch.half).
  bool object_is_local = Is(object, "identifier") && locals && locals->count(Text(object));
  if (object_is_local || !Is(object, "identifier") || model_.assignments.count(Text(object))) {
    Value v = AttributeOf(Eval(object, locals), attr);
    if (v.known() || object_is_local) return v.known() ? v : Value::Unknown(Text(n));
  }
  std::string q = QualifiedName(n);
  if (!q.empty()) return EvalQualified(q, n);
  return Value::Unknown(Text(n));
}

Evaluator::Args Evaluator::EvalArgs(TSNode call, const Locals* locals) {
  Args args;
  TSNode list = Field(call, "arguments");
  if (ts_node_is_null(list)) return args;
  if (Is(list, "generator_expression")) {
    args.positional.push_back(Eval(list, locals));
    return args;
  }
  for (TSNode a : NamedChildren(list)) {
    if (Is(a, "comment")) continue;
    if (Is(a, "keyword_argument")) {
      std::string name = Text(Field(a, "name"));
      args.keyword_nodes[name] = Field(a, "value");
      args.keyword[name] = Eval(Field(a, "value"), locals);
    } else if (Is(a, "list_splat")) {
      Value v = Eval(ts_node_named_child(a, 0), locals);
      if (v.kind == Value::Kind::kList)
        for (auto& item : v.items) args.positional.push_back(std::move(item));
      else
        args.positional.push_back(Value::Unknown(Text(a)));
    } else if (Is(a, "dictionary_splat")) {
      args.positional.push_back(Value::Unknown(Text(a)));
    } else {
      args.positional.push_back(Eval(a, locals));
    }
  }
  return args;
}

Value Evaluator::EvalCall(TSNode n, const Locals* locals) {
  TSNode callee = Field(n, "function");
  std::string q = QualifiedName(callee);
  bool local_callee = Is(callee, "identifier") && locals && locals->count(Text(callee));
  return ApplyCall(n, callee, q, !local_callee && !q.empty() && !model_.function_index.count(q),
                   EvalArgs(n, locals), locals);
}

Value Evaluator::ApplyCall(TSNode call, TSNode callee, const std::string& q, bool by_name,
                           const Args& args, const Locals* locals) {
  Value out;
  if (by_name && (CallBuiltin(q, args, call, &out) || CallTorchHelper(q, args, call, &out)))
    return out;
  Value fn = Eval(callee, locals);
  if (fn.kind == Value::Kind::kCallable || fn.kind == Value::Kind::kBuiltin) {
    if (!args.keyword.empty()) return Value::Unknown(Text(call));
    Value r = Call(fn, args.positional);
    return r.known() ? r : Value::Unknown(Text(call));
  }
  return Value::Unknown(Text(call));
}

Value Evaluator::Call(const Value& fn, const std::vector<Value>& args) {
  if (fn.kind == Value::Kind::kBuiltin) {  // str, repr, int, float, bool: a primitive
    if (args.size() != 1) return Value::UnknownPrimitive(fn.text);
    std::string s;
    if (fn.text == "str" && PythonStr(args[0], &s)) return Value::Str(s);
    if (fn.text == "repr" && args[0].kind == Value::Kind::kStr)
      return Value::Str("'" + args[0].text + "'");
    if (fn.text == "repr" && args[0].kind != Value::Kind::kDtype && PythonStr(args[0], &s))
      return Value::Str(s);
    return Value::UnknownPrimitive(fn.text);
  }
  if (fn.kind != Value::Kind::kCallable) return Value::Unknown(fn.text);
  TSNode params = Field(fn.node, "parameters");
  TSNode body;
  if (Is(fn.node, "lambda")) {
    body = Field(fn.node, "body");
  } else {
    // A def whose body is `return <expr>` (after an optional docstring).
    TSNode block = module_.FunctionBody(fn.node);
    if (ts_node_is_null(block)) return Value::Unknown(fn.text);  // a syntax error in it
    TSNode ret{};
    for (TSNode s : NamedChildren(block)) {
      if (Is(s, "comment")) continue;
      if (Is(s, "return_statement")) {
        ret = s;
        break;
      }
      if (Is(s, "expression_statement") && ts_node_named_child_count(s) == 1 &&
          Is(ts_node_named_child(s, 0), "string"))
        continue;
      if (function_runner_ && depth_ < kMaxDepth) {
        ++depth_;
        Value r = function_runner_(fn, args);
        --depth_;
        return r;
      }
      return Value::Unknown(fn.text);
    }
    if (ts_node_is_null(ret) || ts_node_named_child_count(ret) != 1) return Value::Unknown(fn.text);
    body = ts_node_named_child(ret, 0);
  }
  Locals locals;
  size_t k = 0;
  if (!ts_node_is_null(params)) {
    for (TSNode p : NamedChildren(params)) {
      if (Is(p, "identifier")) {
        if (k >= args.size()) return Value::Unknown(fn.text);
        locals[Text(p)] = args[k++];
      } else if (Is(p, "default_parameter")) {
        locals[Text(Field(p, "name"))] = k < args.size() ? args[k++] : Eval(Field(p, "value"));
      } else if (Is(p, "list_splat_pattern") && ts_node_named_child_count(p) == 1) {
        std::vector<Value> rest(args.begin() + std::min(k, args.size()), args.end());
        locals[Text(ts_node_named_child(p, 0))] = Value::List(rest);
        k = args.size();
      } else {
        return Value::Unknown(fn.text);
      }
    }
  }
  if (k != args.size()) return Value::Unknown(fn.text);
  return Eval(body, &locals);
}

Value Evaluator::EvalSequence(TSNode n, const Locals* locals) {
  std::vector<Value> items;
  for (TSNode e : NamedChildren(n)) {
    if (Is(e, "comment")) continue;
    if (Is(e, "list_splat")) {
      Value v = Eval(ts_node_named_child(e, 0), locals);
      if (v.kind != Value::Kind::kList) return Value::Unknown(Text(n));
      for (auto& item : v.items) items.push_back(std::move(item));
    } else {
      items.push_back(Eval(e, locals));
    }
  }
  return Value::List(std::move(items));
}

Value Evaluator::EvalComprehension(TSNode n, const Locals* locals) {
  TSNode body = Field(n, "body");
  std::vector<TSNode> clauses;
  for (TSNode ch : NamedChildren(n)) {
    if (Is(ch, "for_in_clause") || Is(ch, "if_clause")) clauses.push_back(ch);
  }
  std::vector<Value> out;
  // Fast path: `[x for x in LIST if COND...]`, compiled.
  Value compiled;
  if (EvalCompiledComprehension(n, body, clauses, locals, &compiled)) return compiled;
  bool ok = true;
  Locals scope = locals ? *locals : Locals{};
  std::function<void(size_t)> run = [&](size_t k) {
    if (!ok) return;
    if (k == clauses.size()) {
      out.push_back(Eval(body, &scope));
      if (out.size() > kMaxItems) ok = false;
      return;
    }
    TSNode c = clauses[k];
    if (Is(c, "if_clause")) {
      bool known;
      bool t = Truthy(Eval(ts_node_named_child(c, 0), &scope), &known);
      if (!known)
        ok = false;
      else if (t)
        run(k + 1);
      return;
    }
    TSNode left = Field(c, "left");
    Value seq = Eval(Field(c, "right"), &scope);
    if (seq.kind != Value::Kind::kList) {
      ok = false;
      return;
    }
    std::vector<std::string> names;
    if (Is(left, "identifier")) {
      names.push_back(Text(left));
    } else if (Is(left, "pattern_list") || Is(left, "tuple_pattern")) {
      for (TSNode p : NamedChildren(left)) {
        if (!Is(p, "identifier")) {
          ok = false;
          return;
        }
        names.push_back(Text(p));
      }
    } else {
      ok = false;
      return;
    }
    for (const auto& item : seq.items) {
      if (names.size() == 1) {
        scope[names[0]] = item;
      } else {
        if (item.kind != Value::Kind::kList || item.items.size() != names.size()) {
          ok = false;
          return;
        }
        for (size_t i = 0; i < names.size(); ++i) scope[names[i]] = item.items[i];
      }
      run(k + 1);
      if (!ok) return;
    }
  };
  run(0);
  return ok ? Value::List(std::move(out)) : Value::Unknown(Text(n));
}

Value Evaluator::EvalBinary(TSNode n, const Locals* locals) {
  Value a = Eval(Field(n, "left"), locals);
  Value b = Eval(Field(n, "right"), locals);
  std::string op(module_.Text(Field(n, "operator")));
  using K = Value::Kind;
  if (op == "+") {
    if (a.kind == K::kList && b.kind == K::kList) {
      a.items.insert(a.items.end(), b.items.begin(), b.items.end());
      return a;
    }
    if (a.kind == K::kStr && b.kind == K::kStr) return Value::Str(a.text + b.text);
  }
  if (Value number; NumberArithmetic(op, a, b, Text(n), &number)) return number;
  // Lists do not subtract, intersect or union in Python: these are sets
  // (which the evaluator keeps as lists, see set()).
  if ((op == "-" || op == "&" || op == "|") && a.kind == K::kList && b.kind == K::kList) {
    std::vector<Value> items;
    auto in = [](const Value& x, const Value& list, bool* known) {
      return Compare("in", x, list, known);
    };
    for (const Value& x : a.items) {
      bool known;
      bool found = in(x, b, &known);
      if (!known) return Value::Unknown(Text(n));
      if (op == "|" || found == (op == "&")) items.push_back(x);
    }
    if (op == "|")
      for (const Value& y : b.items) {
        bool known;
        bool found = in(y, a, &known);
        if (!known) return Value::Unknown(Text(n));
        if (!found) items.push_back(y);
      }
    return Value::List(std::move(items));
  }
  if (op == "*") {
    if (a.kind == K::kList && b.kind == K::kInt && b.i >= 0 && a.items.size() * b.i < kMaxItems) {
      std::vector<Value> items;
      for (int64_t r = 0; r < b.i; ++r) items.insert(items.end(), a.items.begin(), a.items.end());
      return Value::List(std::move(items));
    }
  }
  // `"%s" % x` is a str, whose value is unknown here.
  if (op == "%" && a.kind == K::kStr) return Value::UnknownPrimitive(Text(n));
  return Value::Unknown(Text(n));
}

Value Evaluator::EvalComparison(TSNode n, const Locals* locals) {
  // Chains (a < b < c) evaluate pairwise, as Python does.
  std::vector<TSNode> operands;
  std::vector<std::string> ops;
  for (TSNode ch : Children(n)) {
    if (ts_node_is_named(ch))
      operands.push_back(ch);
    else
      ops.push_back(std::string(module_.Text(ch)));
  }
  // "not in"/"is not" may come as two tokens in some grammar versions.
  std::vector<std::string> merged;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] == "not" && i + 1 < ops.size() && ops[i + 1] == "in")
      merged.push_back("not in"), ++i;
    else if (ops[i] == "is" && i + 1 < ops.size() && ops[i + 1] == "not")
      merged.push_back("is not"), ++i;
    else
      merged.push_back(ops[i]);
  }
  if (operands.size() != merged.size() + 1) return Value::Unknown(Text(n));
  Value left = Eval(operands[0], locals);
  for (size_t i = 0; i < merged.size(); ++i) {
    Value right = Eval(operands[i + 1], locals);
    bool known;
    bool result = Compare(merged[i], left, right, &known);
    if (!known) {
      // A bool, unless an operand may overload the comparison (a tensor's
      // `>` is a tensor): `is` and `in` always give one, and so does a
      // comparison of bools, numbers and strings.
      auto plain = [](const Value& v) {
        using K = Value::Kind;
        return v.kind == K::kBool || v.kind == K::kInt || v.kind == K::kFloat ||
               v.kind == K::kStr || v.primitive;
      };
      const std::string& op = merged[i];
      bool is_bool = op == "is" || op == "is not" || op == "in" || op == "not in" ||
                     (plain(left) && plain(right));
      return is_bool ? Value::UnknownPrimitive(Text(n)) : Value::Unknown(Text(n));
    }
    if (!result) return Value::Bool(false);
    left = std::move(right);
  }
  return Value::Bool(true);
}

bool Evaluator::Truthy(const Value& v, bool* known) {
  *known = true;
  switch (v.kind) {
    case Value::Kind::kNone:
      return false;
    case Value::Kind::kBool:
      return v.b;
    case Value::Kind::kInt:
      return v.i != 0;
    case Value::Kind::kFloat:
      return v.f != 0;
    case Value::Kind::kStr:
      return !v.text.empty();
    case Value::Kind::kList:
      return !v.items.empty();
    case Value::Kind::kObject:
      return v.b;
    case Value::Kind::kDtype:
    case Value::Kind::kOpInfo:
    case Value::Kind::kModuleInfo:
    case Value::Kind::kCallable:
    case Value::Kind::kClass:
    case Value::Kind::kSignature:
    case Value::Kind::kModule:
    case Value::Kind::kBuiltin:
    case Value::Kind::kNamed:
      return true;
    default:
      *known = false;
      return false;
  }
}

}  // namespace testmap::python
