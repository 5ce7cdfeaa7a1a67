#include "analyzers/torch_snapshot/torch_snapshot.h"

#include <simdjson.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "analyzers/torch_snapshot/attribute_columns.h"
#include "analyzers/torch_snapshot/snapshot_script.h"
#include "core/content_hash.h"

namespace fs = std::filesystem;

namespace testmap::torch_snapshot {
namespace {

constexpr const char* kFormat = kSnapshotFormat;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot read");
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `argv` and returns its stdout (stderr goes to a temporary file so
// that warnings printed by torch never mix into the JSON); throws with the
// stderr tail on failure.
std::string RunCapture(const std::vector<std::string>& argv) {
  char err_path[] = "/tmp/testmap-stderr-XXXXXX";
  int err_fd = mkstemp(err_path);
  if (err_fd < 0) throw std::runtime_error("cannot create a temporary file");
  close(err_fd);
  std::string cmd;
  for (const auto& a : argv) {
    cmd += "'";
    for (char c : a) cmd += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += "' ";
  }
  cmd += std::string("2>") + err_path;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + argv[0]);
  std::string out;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int status = pclose(p);
  std::string err = ReadFile(err_path);
  unlink(err_path);
  if (status != 0) {
    if (err.size() > 2000) err = "..." + err.substr(err.size() - 2000);
    throw std::runtime_error("`" + argv[0] + "` failed:\n" + err);
  }
  return out;
}

// What a located torch depends on, by stat: the Python (the link named and
// the binary it resolves to), torch's package directory, its version.py and
// the directory holding it (pip rewrites them all when it installs another
// torch). Empty when one of them cannot be stat'ed.
std::string LocationSignature(const std::string& python, const fs::path& torch_init) {
  std::string sig;
  fs::path pkg = torch_init.parent_path();
  auto add = [&](const fs::path& p, bool follow) {
    struct stat st;
    if ((follow ? stat(p.c_str(), &st) : lstat(p.c_str(), &st)) != 0) return false;
    sig += p.string() + ":" + std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) +
           "." + std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ctim.tv_sec) +
           "." + std::to_string(st.st_ctim.tv_nsec) + ":" + std::to_string(st.st_ino) + ":" +
           std::to_string(st.st_dev) + "\n";
    return true;
  };
  if (!add(python, false) || !add(python, true) || !add(pkg.parent_path(), true) ||
      !add(pkg, true) || !add(torch_init, true) || !add(pkg / "version.py", true))
    return "";
  return sig;
}

// The file that records where `python` found torch and the signature then:
// named by the Python and the environment variables that move its search
// path, so that another PYTHONPATH locates torch anew, and by the snapshot
// script, so that a testmap with another script (another snapshot format)
// never serves the snapshot this one recorded.
fs::path LocationRecord(const std::string& python, const fs::path& dir) {
  std::string id = python + "\n" + kSnapshotScript + "\n";
  for (const char* var : {"PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONUSERBASE",
                          "PYTHONSAFEPATH", "PYTHONSTARTUP"}) {
    const char* v = std::getenv(var);
    id += std::string(var) + "=" + (v ? v : "") + (v ? "" : "(unset)") + "\n";
  }
  return dir / ("located-" + core::HexDigest(core::ContentHash(id)) + ".txt");
}

size_t DeviceIndex(const std::vector<std::string>& devices, const std::string& device_type) {
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i] == device_type) return i;
  return 0;  // OpInfo.supported_dtypes' default branch: the `dtypes` (CPU) table
}

// The index of `name` among sorted `names`, or -1.
ptrdiff_t ColumnIndex(const std::vector<std::string>& names, std::string_view name) {
  auto it = std::lower_bound(names.begin(), names.end(), name);
  return it == names.end() || *it != name ? -1 : it - names.begin();
}

// The index of `e` in `entries`, or -1 when it is not one of them.
template <typename Entry>
ptrdiff_t EntryIndex(const std::vector<Entry>& entries, const Entry& e) {
  std::less<const Entry*> before;
  if (entries.empty() || before(&e, entries.data()) || !before(&e, entries.data() + entries.size()))
    return -1;
  return &e - entries.data();
}

}  // namespace

std::vector<std::string> TorchSnapshot::Decode(DtypeMask mask) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < dtype_names.size() && i < 64; ++i)
    if (mask & (DtypeMask{1} << i)) out.push_back(dtype_names[i]);
  return out;
}

namespace {

// Calls fn(index) for each space-separated index of an entry; false when
// one is not a number.
template <typename Fn>
bool ForEachEntryIndex(std::string_view entry, Fn fn) {
  size_t i = 0;
  while (i < entry.size()) {
    if (entry[i] == ' ') {
      ++i;
      continue;
    }
    size_t v = 0, start = i;
    while (i < entry.size() && entry[i] >= '0' && entry[i] <= '9') v = v * 10 + (entry[i++] - '0');
    if (i == start || i - start > 9) return false;
    fn(v);
  }
  return true;
}

}  // namespace

std::vector<std::string_view> TorchSnapshot::EntryLines(const std::string& entry) const {
  std::vector<std::string_view> out;
  ForEachEntryIndex(entry, [&](size_t i) { out.emplace_back(entry_lines[i]); });
  return out;
}

std::vector<std::string> TorchSnapshot::OpDtypes(const OpInfoEntry& op,
                                                 const std::string& device_type,
                                                 bool backward) const {
  const auto& masks = backward ? op.backward_dtypes : op.dtypes;
  size_t i = DeviceIndex(device_types, device_type);
  return Decode(i < masks.size() ? masks[i] : 0);
}

std::vector<std::string> TorchSnapshot::ModuleDtypes(const ModuleInfoEntry& m,
                                                     const std::string& device_type) const {
  size_t i = DeviceIndex(device_types, device_type);
  return Decode(i < m.dtypes.size() ? m.dtypes[i] : 0);
}

std::optional<bool> TorchSnapshot::OpFlag(const OpInfoEntry& op, const std::string& flag) const {
  for (size_t i = 0; i < op_flags.size(); ++i)
    if (op_flags[i] == flag) return (op.flags >> i) & 1;
  return std::nullopt;
}

void TorchSnapshot::MakeAttributeColumns() const {
  op_attrs_ = std::make_shared<AttributeColumns>(ops.size(), op_attr_names.size(), path);
  module_attrs_ =
      std::make_shared<AttributeColumns>(modules.size(), module_attr_names.size(), path);
}

const PlainValue* TorchSnapshot::OpAttribute(const OpInfoEntry& op, std::string_view name) const {
  ptrdiff_t column = ColumnIndex(op_attr_names, name), row = EntryIndex(ops, op);
  if (column < 0 || row < 0) return nullptr;
  std::call_once(*attrs_once_, [this] { MakeAttributeColumns(); });
  return op_attrs_->Get(op.attr_row, row, column);
}

const PlainValue* TorchSnapshot::ModuleAttribute(const ModuleInfoEntry& m,
                                                 std::string_view name) const {
  ptrdiff_t column = ColumnIndex(module_attr_names, name), row = EntryIndex(modules, m);
  if (column < 0 || row < 0) return nullptr;
  std::call_once(*attrs_once_, [this] { MakeAttributeColumns(); });
  return module_attrs_->Get(m.attr_row, row, column);
}

const PlainValue* TorchSnapshot::ExternalName(const std::string& module,
                                              std::string_view name) const {
  auto it = external_names.find(module);
  if (it == external_names.end()) return nullptr;
  ptrdiff_t i = ColumnIndex(it->second.names, name);
  if (i < 0) return nullptr;
  static const PlainValue absent;
  return static_cast<size_t>(i) < it->second.values.size() ? &it->second.values[i] : &absent;
}

int TorchSnapshot::FindEnumClass(std::string_view qualified) const {
  auto it =
      std::lower_bound(enum_classes.begin(), enum_classes.end(), qualified,
                       [](const EnumClass& c, std::string_view q) { return c.qualified < q; });
  return it != enum_classes.end() && it->qualified == qualified
             ? static_cast<int>(it - enum_classes.begin())
             : -1;
}

std::optional<bool> TorchSnapshot::ModuleHasName(const std::string& module,
                                                 std::string_view name) const {
  auto it = module_names.find(module);
  if (it == module_names.end()) return std::nullopt;
  return std::binary_search(it->second.begin(), it->second.end(), name);
}

const OperatorEntry* TorchSnapshot::FindOperator(std::string_view canonical) const {
  auto it = std::lower_bound(operators.begin(), operators.end(), canonical,
                             [](const OperatorEntry& e, std::string_view n) { return e.name < n; });
  return it != operators.end() && it->name == canonical ? &*it : nullptr;
}

std::vector<const OperatorEntry*> TorchSnapshot::PacketOverloads(std::string_view packet) const {
  // Overloads sort right after their packet: `aten::add`, `aten::add.Tensor`,
  // `aten::add.out`; `aten::add_` and `aten::addmm` do not match the prefix.
  std::vector<const OperatorEntry*> out;
  auto it = std::lower_bound(operators.begin(), operators.end(), packet,
                             [](const OperatorEntry& e, std::string_view n) { return e.name < n; });
  for (; it != operators.end() && std::string_view(it->name).starts_with(packet); ++it) {
    std::string_view rest = std::string_view(it->name).substr(packet.size());
    if (rest.empty() || rest[0] == '.') out.push_back(&*it);
  }
  return out;
}

std::optional<bool> TorchSnapshot::HasKernel(const OperatorEntry& op,
                                             std::string_view dispatch_key) const {
  for (size_t i = 0; i < operator_kernel_keys.size(); ++i)
    if (operator_kernel_keys[i] == dispatch_key) return (op.kernels >> i) & 1;
  return std::nullopt;
}

bool LooksLikeTorchSnapshot(std::string_view bytes) {
  // snapshot_torch.py writes compact JSON with sorted keys.
  return bytes.starts_with("{") &&
         bytes.find(std::string("\"format\":\"") + kFormat + "\"") != std::string_view::npos;
}

std::string SnapshotTorchVersion(std::string_view bytes) {
  // Keys are sorted and nothing follows torch_version but its value; the
  // last match is the top-level key. Versions hold no quotes or escapes.
  constexpr std::string_view key = "\"torch_version\":\"";
  size_t at = bytes.rfind(key);
  if (at == std::string_view::npos) return "";
  size_t begin = at + key.size(), end = bytes.find('"', begin);
  return end == std::string_view::npos ? "" : std::string(bytes.substr(begin, end - begin));
}

namespace {

namespace dom = simdjson::dom;

// Reads the parsed snapshot's values, each checked for the type the loader
// needs: a missing required key or a value of another type is the file's
// error, named by where it is (`ops[12].dtypes` is not a number in range).
// simdjson's DOM: a 1.5 MB snapshot loads in ~2 ms where a DOM of
// nlohmann::json took ~16 ms, most of a cold scan of one small file.
class SnapshotReader {
 public:
  explicit SnapshotReader(const std::string& path) : path_(path) {}
  const std::string& path() const { return path_; }

  // Names the list entry (`ops[12]`) or map member (`module_constants.M`)
  // that the keys read while it lives belong to, for messages.
  class Scope {
   public:
    Scope(const SnapshotReader& r, std::string_view parent, size_t index) : r_(r) {
      r.where_.push_back({parent, {}, index});
    }
    Scope(const SnapshotReader& r, std::string_view parent, std::string_view member) : r_(r) {
      r.where_.push_back({parent, member, 0});
    }
    ~Scope() { r_.where_.pop_back(); }
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    const SnapshotReader& r_;
  };

  [[noreturn]] void Fail(std::string_view key, const char* problem) const {
    std::string where;
    for (const Frame& f : where_) {
      if (!where.empty() && !f.parent.empty()) where += ".";  // a map in a map has no key
      where += f.parent;
      where += f.member.empty() ? "[" + std::to_string(f.index) + "]" : "." + std::string(f.member);
    }
    if (!where.empty() && !key.empty() && key[0] != '[') where += ".";
    where += key;
    throw std::runtime_error(path_ + ": malformed torch snapshot: `" + where + "` " + problem);
  }

  dom::element Get(dom::object o, std::string_view key) const {
    dom::element v;
    if (o.at_key(key).get(v) != simdjson::SUCCESS) Fail(key, "is missing");
    return v;
  }
  // A key snapshot_torch.py leaves out where it has no value.
  std::optional<dom::element> Find(dom::object o, std::string_view key) const {
    dom::element v;
    if (o.at_key(key).get(v) != simdjson::SUCCESS) return std::nullopt;
    return v;
  }

  dom::object Object(dom::element v, std::string_view key) const {
    dom::object o;
    if (v.get_object().get(o) != simdjson::SUCCESS) Fail(key, "is not an object");
    return o;
  }
  dom::array Array(dom::element v, std::string_view key) const {
    dom::array a;
    if (v.get_array().get(a) != simdjson::SUCCESS) Fail(key, "is not a list");
    return a;
  }
  std::string_view View(dom::element v, std::string_view key) const {
    std::string_view s;
    if (v.get_string().get(s) != simdjson::SUCCESS) Fail(key, "is not a string");
    return s;
  }
  std::string String(dom::element v, std::string_view key) const {
    return std::string(View(v, key));
  }
  bool Bool(dom::element v, std::string_view key) const {
    bool b;
    if (v.get_bool().get(b) != simdjson::SUCCESS) Fail(key, "is not a bool");
    return b;
  }
  uint64_t Unsigned(dom::element v, std::string_view key,
                    uint64_t max = std::numeric_limits<uint64_t>::max()) const {
    uint64_t u;
    if (v.get_uint64().get(u) != simdjson::SUCCESS || u > max)
      Fail(key, "is not a number in range");
    return u;
  }
  int Int(dom::element v, std::string_view key) const {
    int64_t i;
    if (v.get_int64().get(i) != simdjson::SUCCESS || i < std::numeric_limits<int>::min() ||
        i > std::numeric_limits<int>::max())
      Fail(key, "is not a number in range");
    return static_cast<int>(i);
  }

  // Lists of one type, and objects of them (`map[member] = list`).
  std::vector<std::string> Strings(dom::element v, std::string_view key) const {
    dom::array a = Array(v, key);
    std::vector<std::string> out;
    out.reserve(a.size());
    for (dom::element e : a) out.push_back(String(e, key));
    return out;
  }
  std::vector<DtypeMask> Masks(dom::element v, std::string_view key) const {
    std::vector<DtypeMask> out;
    for (dom::element e : Array(v, key)) out.push_back(Unsigned(e, key));
    return out;
  }
  std::vector<int> Ints(dom::element v, std::string_view key) const {
    std::vector<int> out;
    for (dom::element e : Array(v, key)) out.push_back(Int(e, key));
    return out;
  }
  // An object's members, each read by `value(*this, member)`.
  template <typename Fn>
  auto Map(dom::element v, std::string_view key, Fn value) const {
    std::map<std::string, decltype(value(*this, dom::element()))> out;
    for (auto [member, e] : Object(v, key)) {
      Scope scope(*this, key, member);
      out[std::string(member)] = value(*this, e);
    }
    return out;
  }

 private:
  struct Frame {
    std::string_view parent, member;
    size_t index;
  };
  const std::string& path_;
  mutable std::vector<Frame> where_;
};

// A module constant: None, a bool, a number or a string; anything else
// (snapshot_torch.py writes no other) is kAbsent. An integer keeps its kind
// however it is written; one past int64 (snapshot_torch.py writes none
// past 2**62) keeps its bits.
PlainValue Plain(dom::element e) {
  PlainValue v;
  using K = PlainValue::Kind;
  switch (e.type()) {
    case dom::element_type::NULL_VALUE:
      v.kind = K::kNone;
      break;
    case dom::element_type::BOOL:
      v.kind = K::kBool;
      v.truthy = e.get_bool().value_unsafe();
      break;
    case dom::element_type::INT64:
      v.kind = K::kInt;
      v.i = e.get_int64().value_unsafe();
      v.truthy = v.i != 0;
      break;
    case dom::element_type::UINT64:
      v.kind = K::kInt;
      v.i = static_cast<int64_t>(e.get_uint64().value_unsafe());
      v.truthy = v.i != 0;
      break;
    case dom::element_type::DOUBLE:
      v.kind = K::kFloat;
      v.f = e.get_double().value_unsafe();
      v.truthy = v.f != 0;
      break;
    case dom::element_type::STRING:
      v.kind = K::kStr;
      v.s = e.get_string().value_unsafe();
      v.truthy = !v.s.empty();
      break;
    case dom::element_type::ARRAY:
    case dom::element_type::OBJECT:
      break;
  }
  return v;
}

OpInfoEntry ReadOp(const SnapshotReader& r, dom::element value,
                   const std::vector<std::string>& op_flags) {
  dom::object o = r.Object(value, "");
  OpInfoEntry e;
  e.name = r.String(r.Get(o, "name"), "name");
  e.variant_test_name = r.String(r.Get(o, "variant_test_name"), "variant_test_name");
  e.formatted_name = r.String(r.Get(o, "formatted_name"), "formatted_name");
  std::string_view aten_name;  // null when the OpInfo has none
  if (r.Get(o, "aten_name").get_string().get(aten_name) == simdjson::SUCCESS)
    e.aten_name = aten_name;
  e.dtypes = r.Masks(r.Get(o, "dtypes"), "dtypes");
  e.backward_dtypes = r.Masks(r.Get(o, "backward_dtypes"), "backward_dtypes");
  e.dtypes_default = r.Unsigned(r.Get(o, "dtypes_default"), "dtypes_default");
  e.dtypes_if_cuda = r.Unsigned(r.Get(o, "dtypes_if_cuda"), "dtypes_if_cuda");
  if (auto cls = r.Find(o, "cls")) e.cls = r.Int(*cls, "cls");
  if (auto attrs = r.Find(o, "attrs")) e.attr_row = r.String(*attrs, "attrs");
  if (auto entry = r.Find(o, "entry")) e.entry = r.String(*entry, "entry");
  for (dom::element flag : r.Array(r.Get(o, "flags"), "flags")) {
    auto f = std::find(op_flags.begin(), op_flags.end(), r.View(flag, "flags"));
    if (f != op_flags.end()) e.flags |= uint64_t{1} << (f - op_flags.begin());
  }
  return e;
}

ModuleInfoEntry ReadModule(const SnapshotReader& r, dom::element value) {
  dom::object o = r.Object(value, "");
  ModuleInfoEntry m;
  m.name = r.String(r.Get(o, "name"), "name");
  m.formatted_name = r.String(r.Get(o, "formatted_name"), "formatted_name");
  if (auto cls = r.Find(o, "module_cls")) m.module_cls = r.String(*cls, "module_cls");
  m.train_and_eval_differ = r.Bool(r.Get(o, "train_and_eval_differ"), "train_and_eval_differ");
  m.dtypes = r.Masks(r.Get(o, "dtypes"), "dtypes");
  if (auto attrs = r.Find(o, "attrs")) m.attr_row = r.String(*attrs, "attrs");
  if (auto entry = r.Find(o, "entry")) m.entry = r.String(*entry, "entry");
  // null when inspect could not read the constructor's signature
  if (auto params = r.Find(o, "ctor_params"); params && params->is_array())
    m.ctor_params = r.Strings(*params, "ctor_params");
  return m;
}

// `[name, schema, kernels, tags]`; snapshots from before operator tags
// have no tags.
OperatorEntry ReadOperator(const SnapshotReader& r, dom::element value) {
  OperatorEntry op;
  size_t n = 0;
  for (dom::element field : r.Array(value, "")) {
    switch (n++) {
      case 0:
        op.name = r.String(field, "[0]");
        break;
      case 1:
        op.schema = r.String(field, "[1]");
        break;
      case 2:
        op.kernels = r.Unsigned(field, "[2]", std::numeric_limits<uint32_t>::max());
        break;
      case 3:
        op.tags = r.Unsigned(field, "[3]");
        break;
    }
  }
  if (n < 3) r.Fail("", "has fewer than 3 fields");
  return op;
}

std::vector<std::string> Strings(const SnapshotReader& r, dom::element e) {
  return r.Strings(e, "");
}

DtypeHelperCall ReadHelperCall(const SnapshotReader& r, dom::element value) {
  dom::object o = r.Object(value, "");
  DtypeHelperCall c;
  c.params = r.Strings(r.Get(o, "params"), "params");
  for (dom::element d : r.Array(r.Get(o, "defaults"), "defaults")) {
    bool b;  // a device string has no default
    c.defaults.push_back(d.get_bool().get(b) == simdjson::SUCCESS ? std::optional<bool>(b)
                                                                  : std::nullopt);
  }
  c.results = r.Map(r.Get(o, "results"), "results", Strings);
  return c;
}

// dir() of a module, space-separated, as a sorted list.
std::vector<std::string> ModuleNames(const SnapshotReader& r, dom::element e) {
  std::string_view all = r.View(e, "");
  std::vector<std::string> out;
  for (size_t b = 0; b < all.size();) {
    size_t end = all.find(' ', b);
    if (end == std::string_view::npos) end = all.size();
    if (end > b) out.emplace_back(all.substr(b, end - b));
    b = end + 1;
  }
  std::sort(out.begin(), out.end());
  return out;
}

// [names, row]: the row decoded now (a few thousand values), so that a bad
// one is the snapshot's error rather than a lookup's.
TorchSnapshot::ExternalModule ReadExternalModule(const SnapshotReader& r, dom::element e) {
  dom::array a = r.Array(e, "");
  if (a.size() != 2) r.Fail("", "is not [names, row]");
  TorchSnapshot::ExternalModule m;
  m.names = r.Strings(a.at(0).value_unsafe(), "[0]");
  if (!std::is_sorted(m.names.begin(), m.names.end())) r.Fail("[0]", "is not sorted");
  m.values = DecodeAttributeRow(r.View(a.at(1).value_unsafe(), "[1]"), m.names.size(), r.path());
  return m;
}

std::map<std::string, PlainValue> ModuleConstants(const SnapshotReader& r, dom::element e) {
  std::map<std::string, PlainValue> out;
  for (auto [name, value] : r.Object(e, "")) out[std::string(name)] = Plain(value);
  return out;
}

// Everything but the checks across fields.
void ReadSnapshot(const SnapshotReader& r, dom::object j, TorchSnapshot& s) {
  auto ints = [](const SnapshotReader& r, dom::element e) { return r.Ints(e, ""); };
  auto string = [](const SnapshotReader& r, dom::element e) { return r.String(e, ""); };
  s.torch_version = r.String(r.Get(j, "torch_version"), "torch_version");
  if (auto git = r.Find(j, "torch_git_version"))
    s.torch_git_version = r.String(*git, "torch_git_version");
  s.dtype_names = r.Strings(r.Get(j, "dtype_names"), "dtype_names");
  s.device_types = r.Strings(r.Get(j, "device_types"), "device_types");
  s.op_flags = r.Strings(r.Get(j, "op_flags"), "op_flags");
  s.dtype_aliases = r.Map(r.Get(j, "dtype_aliases"), "dtype_aliases", string);
  s.dtype_helpers = r.Map(r.Get(j, "dtype_helpers"), "dtype_helpers", Strings);
  s.all_dtypes = r.Strings(r.Get(j, "all_dtypes"), "all_dtypes");
  s.any_dtype_order = r.Strings(r.Get(j, "any_dtype_order"), "any_dtype_order");
  s.op_attr_names = r.Strings(r.Get(j, "op_attr_names"), "op_attr_names");
  s.module_attr_names = r.Strings(r.Get(j, "module_attr_names"), "module_attr_names");
  for (dom::element c : r.Array(r.Get(j, "op_classes"), "op_classes")) {
    SnapshotReader::Scope scope(r, "op_classes", s.op_classes.size());
    s.op_classes.push_back(r.Strings(c, ""));
  }
  s.entry_lines = r.Strings(r.Get(j, "entry_lines"), "entry_lines");
  s.dtype_helper_calls =
      r.Map(r.Get(j, "dtype_helper_calls"), "dtype_helper_calls", ReadHelperCall);
  s.module_constants = r.Map(r.Get(j, "module_constants"), "module_constants", ModuleConstants);
  std::erase_if(s.module_constants, [](const auto& m) { return m.second.empty(); });
  s.module_names = r.Map(r.Get(j, "module_names"), "module_names", ModuleNames);
  s.module_alls = r.Map(r.Get(j, "module_alls"), "module_alls", Strings);
  // Optional: a snapshot without it knows no such name.
  if (auto e = r.Find(j, "external_names"))
    s.external_names = r.Map(*e, "external_names", ReadExternalModule);
  s.op_lists = r.Map(r.Get(j, "op_lists"), "op_lists", ints);
  s.module_lists = r.Map(r.Get(j, "module_lists"), "module_lists", ints);
  auto members = [&](const SnapshotReader& r, dom::element e) { return r.Map(e, "", string); };
  for (auto& [name, m] : r.Map(r.Get(j, "enum_classes"), "enum_classes", members))
    s.enum_classes.push_back({name, std::move(m)});  // sorted: a std::map's order
  for (auto& [name, cls] : r.Map(r.Get(j, "enum_names"), "enum_names", string)) {
    int i = s.FindEnumClass(cls);
    if (i < 0) {
      SnapshotReader::Scope scope(r, "enum_names", name);
      r.Fail("", "names no class of enum_classes");
    }
    s.enum_names[name] = i;
  }
  dom::array ops = r.Array(r.Get(j, "ops"), "ops");
  s.ops.reserve(ops.size());
  for (dom::element o : ops) {
    SnapshotReader::Scope scope(r, "ops", s.ops.size());
    s.ops.push_back(ReadOp(r, o, s.op_flags));
  }
  for (dom::element m : r.Array(r.Get(j, "modules"), "modules")) {
    SnapshotReader::Scope scope(r, "modules", s.modules.size());
    s.modules.push_back(ReadModule(r, m));
  }
  s.operator_kernel_keys = r.Strings(r.Get(j, "operator_kernel_keys"), "operator_kernel_keys");
  // Operator tags came later within format 4: a snapshot without them has
  // operators with no tags.
  if (auto tags = r.Find(j, "operator_tags")) s.operator_tags = r.Strings(*tags, "operator_tags");
  dom::array operators = r.Array(r.Get(j, "operators"), "operators");
  s.operators.reserve(operators.size());
  for (dom::element o : operators) {
    SnapshotReader::Scope scope(r, "operators", s.operators.size());
    s.operators.push_back(ReadOperator(r, o));
  }
}

}  // namespace

TorchSnapshot LoadTorchSnapshot(const std::string& path) {
  return ParseTorchSnapshot(path, ReadFile(path));
}

TorchSnapshot ParseTorchSnapshot(const std::string& path, const std::string& text) {
  dom::parser parser;
  dom::element root;
  if (auto error = parser.parse(text).get(root))
    throw std::runtime_error(path + ": not a torch snapshot: " + simdjson::error_message(error));
  dom::object j;
  std::string_view format;
  if (root.get_object().get(j) || j["format"].get_string().get(format) || format != kFormat)
    throw std::runtime_error(path + ": unknown snapshot format (want " + kFormat + ")");
  TorchSnapshot s;
  s.path = path;
  s.content_hash = core::HexDigest(core::ContentHash(text));
  ReadSnapshot(SnapshotReader(path), j, s);
  if (!std::is_sorted(s.op_attr_names.begin(), s.op_attr_names.end()) ||
      !std::is_sorted(s.module_attr_names.begin(), s.module_attr_names.end()))
    throw std::runtime_error(path + ": attribute names are not sorted");
  if (!std::is_sorted(s.operators.begin(), s.operators.end(),
                      [](const auto& a, const auto& b) { return a.name < b.name; }))
    throw std::runtime_error(path + ": operator registry is not sorted by name");
  // Checked once here so that list entries index ops and modules safely.
  auto check_lists = [&](const auto& lists, size_t size, const char* what) {
    for (const auto& [name, idx] : lists)
      for (int i : idx)
        if (i < 0 || static_cast<size_t>(i) >= size)
          throw std::runtime_error(path + ": " + what + " " + name + " has a bad index");
  };
  check_lists(s.op_lists, s.ops.size(), "op list");
  check_lists(s.module_lists, s.modules.size(), "module list");
  // Checked once here so that a member always names a canonical member.
  for (const EnumClass& c : s.enum_classes)
    for (const auto& [member, canonical] : c.members) {
      auto it = c.members.find(canonical);
      if (it == c.members.end() || it->second != canonical)
        throw std::runtime_error(path + ": enum member " + c.qualified + "." + member +
                                 " stands for no member");
    }
  // Checked once here so that EntryLines never reads past entry_lines.
  auto check_entry = [&](const std::string& name, const std::string& entry) {
    bool in_range = true;
    if (!ForEachEntryIndex(entry, [&](size_t i) { in_range &= i < s.entry_lines.size(); }) ||
        !in_range)
      throw std::runtime_error(path + ": entry of " + name + " has a bad index");
  };
  for (const auto& op : s.ops) check_entry(op.name, op.entry);
  for (const auto& m : s.modules) check_entry(m.name, m.entry);
  return s;
}

std::string DefaultCacheDir() {
  if (const char* d = std::getenv("TESTMAP_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/testmap";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/testmap";
  return ".testmap-cache";
}

std::string DefaultTorchPython(std::string* why) {
  auto pick = [&](std::string python, const char* source) {
    if (why) *why = source;
    return python;
  };
  if (const char* venv = std::getenv("VIRTUAL_ENV"); venv && *venv) {
    fs::path p = fs::path(venv) / "bin" / "python";
    std::error_code ec;
    if (fs::exists(p, ec)) return pick(p.string(), "the active virtualenv ($VIRTUAL_ENV)");
  }
  if (const char* env = std::getenv("TESTMAP_PYTHON"); env && *env)
    return pick(env, "$TESTMAP_PYTHON");
  return pick(TESTMAP_DEFAULT_PYTHON, "the Python testmap was built with");
}

std::string EnsureTorchSnapshot(const std::string& python, const std::string& cache_dir) {
  if (python.find('/') != std::string::npos) {
    std::error_code ec;
    if (!fs::exists(python, ec)) throw std::runtime_error(python + ": no such Python");
  }
  fs::path dir = fs::path(cache_dir) / "torch-snapshots";
  // A snapshot is named by torch's version.py and the script that takes
  // it, so that another torch or another testmap takes its own.
  auto snapshot_name = [](const std::string& origin) {
    fs::path version_py = fs::path(origin).parent_path() / "version.py";
    return core::HexDigest(core::ContentHash(ReadFile(version_py.string()) + kSnapshotScript)) +
           ".json";
  };
  // Where torch was found last time, with the stat of everything that
  // located it: when none of it changed, the snapshot is served without
  // starting Python (~20 ms, a warm scan's largest cost otherwise).
  fs::path record = LocationRecord(python, dir);
  if (std::ifstream in(record); in && python.find('/') != std::string::npos) {
    std::string origin, target, sig((std::istreambuf_iterator<char>(in)), {});
    size_t a = sig.find('\n'), b = a == std::string::npos ? a : sig.find('\n', a + 1);
    if (b != std::string::npos) {
      origin = sig.substr(0, a);
      target = (dir / sig.substr(a + 1, b - a - 1)).string();  // a name in `dir`
      sig.erase(0, b + 1);
      std::error_code ec;
      // The record may be an older testmap's, naming its own snapshot.
      if (!sig.empty() && sig == LocationSignature(python, origin) && fs::exists(target, ec) &&
          fs::path(target).filename() == snapshot_name(origin))
        return target;
    }
  }
  // Locating torch without importing it takes milliseconds; importing it
  // takes seconds, so that only happens when the snapshot is missing.
  std::string origin;
  try {
    origin = RunCapture({python, "-c",
                         "import importlib.util as u; s = u.find_spec('torch'); "
                         "print(s.origin if s else '')"});
  } catch (const std::exception&) {
    throw std::runtime_error(python + ": cannot run this Python");
  }
  while (!origin.empty() && (origin.back() == '\n' || origin.back() == '\r')) origin.pop_back();
  if (origin.empty()) throw std::runtime_error(python + " has no torch installed");
  fs::path target = dir / snapshot_name(origin);
  // Records where torch was found (write, then rename, as for snapshots).
  auto remember = [&] {
    std::string sig = LocationSignature(python, origin);
    if (sig.empty() || python.find('/') == std::string::npos) return;
    std::error_code ec;
    fs::path tmp = record.string() + ".tmp" + std::to_string(getpid());
    std::ofstream(tmp) << origin << "\n" << target.filename().string() << "\n" << sig;
    fs::rename(tmp, record, ec);
  };
  if (fs::exists(target)) {
    remember();
    return target.string();
  }

  fs::create_directories(dir);
  fs::path script = dir / ("snapshot_torch-" + std::to_string(getpid()) + ".py");
  std::ofstream(script) << kSnapshotScript;
  std::string json;
  try {
    json = RunCapture({python, script.string()});
  } catch (...) {
    fs::remove(script);
    throw;
  }
  fs::remove(script);
  // Write then rename, so a concurrent scan never reads half a snapshot.
  fs::path tmp = target.string() + ".tmp" + std::to_string(getpid());
  std::ofstream(tmp, std::ios::binary) << json;
  fs::rename(tmp, target);
  LoadTorchSnapshot(target.string());  // reject (and report) a bad dump now
  remember();
  return target.string();
}

}  // namespace testmap::torch_snapshot
