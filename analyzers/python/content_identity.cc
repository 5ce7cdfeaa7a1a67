#include "analyzers/python/content_identity.h"

#include <algorithm>
#include <optional>

#include "analyzers/python/source_hash.h"
#include "core/content_hash.h"

namespace testmap::python {
namespace {

bool StartsWith(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

bool IsWordChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Methods every test of a class runs around itself, whether it names them
// or not (unittest's and pytest's hooks).
bool IsSetupHook(std::string_view name) {
  static constexpr std::string_view kHooks[] = {
      "setUp",           "tearDown",    "setUpClass",     "tearDownClass", "setup_method",
      "teardown_method", "setup_class", "teardown_class", "_setUp",        "_tearDown"};
  return std::find(std::begin(kHooks), std::end(kHooks), name) != std::end(kHooks);
}

// Calls `at_name(b)` with the offset just past each `self.` or `cls.` of
// normalized `text` (normalized source has no spaces around the dot) that
// is not the end of a longer word (`myself.`); stops when it returns true.
template <class AtName>
bool AnyMemberRead(std::string_view text, AtName at_name) {
  for (std::string_view recv : {std::string_view("self."), std::string_view("cls.")}) {
    for (size_t at = text.find(recv); at != std::string_view::npos; at = text.find(recv, at + 1)) {
      if (at > 0 && IsWordChar(text[at - 1])) continue;
      if (at_name(at + recv.size())) return true;
    }
  }
  return false;
}

// Whether `text` names `self.NAME` or `cls.NAME`.
bool NamesMember(std::string_view text, std::string_view name) {
  return AnyMemberRead(text, [&](size_t b) {
    size_t e = b + name.size();
    return text.substr(b, name.size()) == name && (e == text.size() || !IsWordChar(text[e]));
  });
}

// The names `text` reads as `self.NAME` or `cls.NAME` (the whole word after
// the dot), sorted and unique, found in one pass: a test's body is matched
// against each helper of its class, and each helper against the others,
// and scanning the text once per pair was a tenth of a scan of real PyTorch
// files.
std::vector<std::string> MemberReads(std::string_view text) {
  std::vector<std::string> names;
  AnyMemberRead(text, [&](size_t b) {
    size_t e = b;
    while (e < text.size() && IsWordChar(text[e])) ++e;
    names.emplace_back(text.substr(b, e - b));
    return false;
  });
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

// NamesMember(text, name), from MemberReads(text) when `name` is made of
// word characters (every ASCII identifier), else from the text itself.
bool Reads(const std::vector<std::string>& reads, std::string_view text, std::string_view name) {
  if (name.empty() || !std::all_of(name.begin(), name.end(), IsWordChar))
    return NamesMember(text, name);
  return std::binary_search(reads.begin(), reads.end(), name);
}

// A field of a tab-separated entry line.
std::string_view Column(std::string_view line, int i) {
  size_t b = 0;
  for (int k = 0; k < i; ++k) {
    b = line.find('\t', b);
    if (b == std::string_view::npos) return {};
    ++b;
  }
  size_t e = line.find('\t', b);
  return line.substr(b, e == std::string_view::npos ? std::string_view::npos : e - b);
}

bool InList(std::string_view list, std::string_view item) {
  size_t b = 0;
  while (b <= list.size()) {
    size_t e = list.find(',', b);
    if (e == std::string_view::npos) e = list.size();
    if (list.substr(b, e - b) == item) return true;
    b = e + 1;
  }
  return false;
}

// DecorateInfo.is_active for the record's generic test, device and dtype.
bool Applies(const EntryLine& l, const TestRecord& r) {
  if (!l.decorate) return true;  // input functions apply to every test
  auto any_or = [](std::string_view v, std::string_view want) {
    return v == "*" || InList(v, want);
  };
  return l.active && any_or(l.cls, r.generic_class) && any_or(l.method, r.generic_method) &&
         any_or(l.device, r.params.device) &&
         (l.dtypes == "*" ||
          (r.params.dtypes.size() == 1 && InList(l.dtypes, r.params.dtypes.front())));
}

std::string EntryHash(const torch_snapshot::TorchSnapshot& snap, const std::string& entry,
                      const TestRecord& r) {
  std::string text;
  for (std::string_view line : snap.EntryLines(entry))
    if (Applies(EntryLine(line), r)) (text += line) += '\n';
  return core::ShortHexDigest(text);
}

std::string DtypesHash(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::string text;
  for (const auto& d : a) (text += d) += ',';
  text += ';';
  for (const auto& d : b) (text += d) += ',';
  return core::ShortHexDigest(text);
}

}  // namespace

const ClassDef* SourceIdentities::LocalClass(TSNode base) const {
  if (!Is(base, "identifier")) return nullptr;
  std::string_view name = m_.Text(base);
  for (auto it = model_.classes.rbegin(); it != model_.classes.rend(); ++it)
    if (it->name == name) return &*it;
  return nullptr;
}

const SourceIdentities::ClassParts& SourceIdentities::Class(const ClassDef& c) {
  auto [it, fresh] = classes_.try_emplace(&c);
  if (!fresh) return it->second;
  ClassParts& parts = it->second;
  for (TSNode b : c.bases) (parts.fixed += NormalizeSource(m_.Text(b))) += '\n';
  for (TSNode d : c.decorators) (parts.fixed += NormalizeSource(m_.Text(d))) += '\n';
  for (const ClassMember& cm : c.members) {
    if (StartsWith(cm.name, "test")) continue;
    if (cm.kind == ClassMember::Kind::kFunction) {
      std::string text = NormalizeSource(m_.Text(c.functions[cm.function].outer));
      if (IsSetupHook(cm.name)) {
        (parts.fixed += text) += '\n';
      } else {
        ClassParts::Helper& h = parts.helpers[cm.name];
        h.reads = MemberReads(text);
        h.text = std::move(text);
      }
    } else if (cm.kind == ClassMember::Kind::kAttribute && !ts_node_is_null(cm.value)) {
      (((parts.fixed += cm.name) += '=') += NormalizeSource(m_.Text(cm.value))) += '\n';
    }
  }
  return parts;
}

std::string SourceIdentities::Setup(const ClassDef* owner, std::string_view body) {
  std::string text;
  // The class and its bases defined in this file, nearest first (a
  // bounded walk: a base named like a later class must not loop).
  std::vector<const ClassDef*> chain;
  for (const ClassDef* c = owner; c && chain.size() < 16;) {
    if (std::find(chain.begin(), chain.end(), c) != chain.end()) break;
    chain.push_back(c);
    const ClassDef* next = nullptr;
    for (TSNode b : c->bases)
      if ((next = LocalClass(b))) break;
    c = next;
  }
  std::optional<std::vector<std::string>> reads;  // the body's, once a class has helpers
  for (const ClassDef* c : chain) {
    const ClassParts& parts = Class(*c);
    text += parts.fixed;
    if (parts.helpers.empty()) continue;
    if (!reads) reads = MemberReads(body);
    const std::vector<std::string>& body_reads = *reads;
    // Helpers the body names, and the helpers those name (one level more).
    for (const auto& [name, helper] : parts.helpers) {
      bool named = Reads(body_reads, body, name);
      for (const auto& [other, o] : parts.helpers)
        if (!named && other != name && Reads(body_reads, body, other) &&
            Reads(o.reads, o.text, name))
          named = true;
      if (named) (((text += name) += ':') += helper.text) += '\n';
    }
  }
  return core::ShortHexDigest(text);
}

void SourceIdentities::Describe(const FunctionDef& fn, const ClassDef* owner, TestRecord& r) {
  auto [it, fresh] = functions_[&fn].try_emplace(owner);
  FunctionParts& p = it->second;
  if (fresh) {
    std::string decorators;
    for (TSNode d : fn.decorators) (decorators += NormalizeSource(m_.Text(d))) += '\n';
    // From the parameters on: the name is not part of the body, so a
    // renamed test keeps its body hash.
    TSNode params = Field(fn.def, "parameters");
    std::string_view def = m_.Text(fn.def);
    size_t from =
        ts_node_is_null(params) ? 0 : ts_node_start_byte(params) - ts_node_start_byte(fn.def);
    p.normalized_body = NormalizeSource(def.substr(from));
    p.body = core::ShortHexDigest(p.normalized_body);
    p.decorators = core::ShortHexDigest(decorators);
    p.setup = Setup(owner, p.normalized_body);
    p.source_hash =
        core::HexDigest(core::ContentHash(decorators + "def " + fn.name + p.normalized_body));
  }
  r.source_hash = p.source_hash;
  r.content.body = p.body;
  r.content.decorators = p.decorators;
  r.content.setup = p.setup;
}

void DescribeOpEntry(const torch_snapshot::TorchSnapshot& snap,
                     const torch_snapshot::OpInfoEntry& op, TestRecord& r) {
  r.content.entry = EntryHash(snap, op.entry, r);
  r.content.dtypes = DtypesHash(snap.OpDtypes(op, r.params.device, false),
                                snap.OpDtypes(op, r.params.device, true));
}

EntryLine::EntryLine(std::string_view line) : text(line), decorate(StartsWith(line, "decorate\t")) {
  if (!decorate) return;
  cls = Column(line, 1);
  method = Column(line, 2);
  device = Column(line, 3);
  dtypes = Column(line, 4);
  active = Column(line, 5) == "T";
}

const std::vector<EntryLine>& OpEntryIdentities::Lines(const torch_snapshot::TorchSnapshot& snap,
                                                       const torch_snapshot::OpInfoEntry& op) {
  auto [it, fresh] = lines_.try_emplace(&op);
  if (fresh)
    for (std::string_view line : snap.EntryLines(op.entry)) it->second.emplace_back(line);
  return it->second;
}

void OpEntryIdentities::Describe(const torch_snapshot::TorchSnapshot& snap,
                                 const torch_snapshot::OpInfoEntry& op, TestRecord& r) {
  text_.clear();
  for (const EntryLine& l : Lines(snap, op))
    if (Applies(l, r)) (text_ += l.text) += '\n';
  r.content.entry = core::ShortHexDigest(text_);

  // Keyed by the op's address: one snapshot per scan.
  std::string key(reinterpret_cast<const char*>(&op), sizeof &op);
  key += r.params.device;
  auto [d, fresh] = dtypes_.try_emplace(std::move(key));
  if (fresh)
    d->second = DtypesHash(snap.OpDtypes(op, r.params.device, false),
                           snap.OpDtypes(op, r.params.device, true));
  r.content.dtypes = d->second;
}

void DescribeModuleEntry(const torch_snapshot::TorchSnapshot& snap,
                         const torch_snapshot::ModuleInfoEntry& module, TestRecord& r) {
  r.content.entry = EntryHash(snap, module.entry, r);
  r.content.dtypes = DtypesHash(snap.ModuleDtypes(module, r.params.device), {});
}

}  // namespace testmap::python
