#include "analyzers/torch_snapshot/torch_snapshot.h"

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

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
// path, so that another PYTHONPATH locates torch anew.
fs::path LocationRecord(const std::string& python, const fs::path& dir) {
  std::string id = python + "\n";
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

std::vector<DtypeMask> Masks(const nlohmann::json& j) { return j.get<std::vector<DtypeMask>>(); }

// A module constant: None, a bool, a number or a string.
PlainValue Plain(const nlohmann::json& j) {
  PlainValue v;
  using K = PlainValue::Kind;
  if (j.is_null()) {
    v.kind = K::kNone;
  } else if (j.is_boolean()) {
    v.kind = K::kBool;
    v.truthy = j.get<bool>();
  } else if (j.is_number_integer()) {
    v.kind = K::kInt;
    v.i = j.get<int64_t>();
    v.truthy = v.i != 0;
  } else if (j.is_number()) {
    v.kind = K::kFloat;
    v.f = j.get<double>();
    v.truthy = v.f != 0;
  } else if (j.is_string()) {
    v.kind = K::kStr;
    v.s = j.get<std::string>();
    v.truthy = !v.s.empty();
  }
  return v;
}

// A row of attribute values in snapshot_torch.py's plain() code, one
// string per object: a JSON tree of ~150k small values tripled the
// snapshot's load time, this reader does not show in a profile.
class RowReader {
 public:
  RowReader(std::string_view text, const std::string& path) : t_(text), path_(path) {}

  std::vector<PlainValue> Row(size_t columns) {
    std::vector<PlainValue> row;
    row.reserve(columns);
    while (p_ < t_.size()) row.push_back(Read(0));
    if (row.size() != columns) Fail("attribute row does not match its columns");
    return row;
  }

 private:
  [[noreturn]] void Fail(const char* what) {
    throw std::runtime_error(path_ + ": malformed torch snapshot: " + what);
  }
  std::string_view Until(char end) {
    size_t e = t_.find(end, p_);
    if (e == std::string_view::npos) Fail("unterminated value in attribute row");
    std::string_view out = t_.substr(p_, e - p_);
    p_ = e + 1;
    return out;
  }
  PlainValue Read(int depth) {
    using K = PlainValue::Kind;
    if (depth > 8) Fail("nesting too deep");
    if (p_ >= t_.size()) Fail("unexpected end of attribute row");
    PlainValue v;
    char c = t_[p_++];
    switch (c) {
      case '-':
        break;
      case 'N':
        v.kind = K::kNone;
        break;
      case 'T':
      case 'F':
        v.kind = K::kBool;
        v.truthy = c == 'T';
        break;
      case 'O':
      case 'o':
        v.kind = K::kObject;
        v.truthy = c == 'O';
        break;
      case 'i':
        v.kind = K::kInt;
        v.i = std::strtoll(std::string(Until(';')).c_str(), nullptr, 10);
        v.truthy = v.i != 0;
        break;
      case 'f':
        v.kind = K::kFloat;
        v.f = std::strtod(std::string(Until(';')).c_str(), nullptr);
        v.truthy = v.f != 0;
        break;
      case 'd':
        v.kind = K::kDtype;
        v.s = Until(';');
        v.truthy = true;
        break;
      case 's': {
        size_t n = std::strtoull(std::string(Until(':')).c_str(), nullptr, 10);
        if (p_ + n > t_.size()) Fail("string runs past its attribute row");
        v.kind = K::kStr;
        v.s = t_.substr(p_, n);
        v.truthy = n != 0;
        p_ += n;
        break;
      }
      case '[':
        v.kind = K::kList;
        while (p_ < t_.size() && t_[p_] != ']') v.items.push_back(Read(depth + 1));
        if (p_++ >= t_.size()) Fail("unterminated list in attribute row");
        v.truthy = !v.items.empty();
        break;
      default:
        Fail("unexpected code in attribute row");
    }
    return v;
  }

  std::string_view t_;
  const std::string& path_;
  size_t p_ = 0;
};

std::string AttrRow(const nlohmann::json& o) {
  auto it = o.find("attrs");
  return it == o.end() ? std::string() : it->get<std::string>();
}

const PlainValue* Column(const std::vector<std::string>& names, const std::vector<PlainValue>& row,
                         std::string_view name) {
  auto it = std::lower_bound(names.begin(), names.end(), name);
  if (it == names.end() || *it != name) return nullptr;
  size_t i = it - names.begin();
  static const PlainValue absent;
  return i < row.size() ? &row[i] : &absent;
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

void TorchSnapshot::DecodeAttributes() const {
  // A row that fails to decode leaves its object without attributes, so
  // that filters on it stay unknown rather than wrong.
  auto decode = [&](const std::string& row, size_t columns, std::vector<PlainValue>* out) {
    if (row.empty()) return;
    try {
      *out = RowReader(row, path).Row(columns);
    } catch (const std::exception&) {
      out->clear();
    }
  };
  for (const auto& op : ops) decode(op.attr_row, op_attr_names.size(), &op.attrs);
  for (const auto& m : modules) decode(m.attr_row, module_attr_names.size(), &m.attrs);
}

const PlainValue* TorchSnapshot::OpAttribute(const OpInfoEntry& op, std::string_view name) const {
  std::call_once(*attrs_once_, [this] { DecodeAttributes(); });
  if (op.attrs.empty() && !op_attr_names.empty()) return nullptr;
  return Column(op_attr_names, op.attrs, name);
}

const PlainValue* TorchSnapshot::ModuleAttribute(const ModuleInfoEntry& m,
                                                 std::string_view name) const {
  std::call_once(*attrs_once_, [this] { DecodeAttributes(); });
  if (m.attrs.empty() && !module_attr_names.empty()) return nullptr;
  return Column(module_attr_names, m.attrs, name);
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

TorchSnapshot LoadTorchSnapshot(const std::string& path) {
  std::string text = ReadFile(path);
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error(path + ": not a torch snapshot: " + e.what());
  }
  if (!j.is_object() || j.value("format", "") != kFormat)
    throw std::runtime_error(path + ": unknown snapshot format (want " + kFormat + ")");
  TorchSnapshot s;
  try {
    s.path = path;
    s.content_hash = core::HexDigest(core::ContentHash(text));
    s.torch_version = j.at("torch_version");
    s.torch_git_version = j.value("torch_git_version", "");
    s.dtype_names = j.at("dtype_names").get<std::vector<std::string>>();
    s.device_types = j.at("device_types").get<std::vector<std::string>>();
    s.op_flags = j.at("op_flags").get<std::vector<std::string>>();
    s.dtype_aliases = j.at("dtype_aliases").get<std::map<std::string, std::string>>();
    for (auto& [k, v] : j.at("dtype_helpers").items())
      s.dtype_helpers[k] = v.get<std::vector<std::string>>();
    s.all_dtypes = j.at("all_dtypes").get<std::vector<std::string>>();
    s.any_dtype_order = j.at("any_dtype_order").get<std::vector<std::string>>();
    s.op_attr_names = j.at("op_attr_names").get<std::vector<std::string>>();
    s.module_attr_names = j.at("module_attr_names").get<std::vector<std::string>>();
    if (!std::is_sorted(s.op_attr_names.begin(), s.op_attr_names.end()) ||
        !std::is_sorted(s.module_attr_names.begin(), s.module_attr_names.end()))
      throw std::runtime_error(path + ": attribute names are not sorted");
    s.op_classes = j.at("op_classes").get<std::vector<std::vector<std::string>>>();
    for (const auto& [name, call] : j.at("dtype_helper_calls").items()) {
      DtypeHelperCall c;
      c.params = call.at("params").get<std::vector<std::string>>();
      for (const auto& d : call.at("defaults"))
        c.defaults.push_back(d.is_boolean() ? std::optional<bool>(d.get<bool>()) : std::nullopt);
      c.results = call.at("results").get<std::map<std::string, std::vector<std::string>>>();
      s.dtype_helper_calls[name] = std::move(c);
    }
    for (const auto& [module, consts] : j.at("module_constants").items())
      for (const auto& [name, value] : consts.items())
        s.module_constants[module][name] = Plain(value);
    for (const auto& [module, names] : j.at("module_names").items()) {
      std::vector<std::string>& out = s.module_names[module];
      std::string_view all = names.get_ref<const std::string&>();
      for (size_t b = 0; b < all.size();) {
        size_t e = all.find(' ', b);
        if (e == std::string_view::npos) e = all.size();
        if (e > b) out.emplace_back(all.substr(b, e - b));
        b = e + 1;
      }
      std::sort(out.begin(), out.end());
    }
    s.entry_lines = j.at("entry_lines").get<std::vector<std::string>>();
    s.module_alls = j.at("module_alls").get<std::map<std::string, std::vector<std::string>>>();
    for (const auto& o : j.at("ops")) {
      OpInfoEntry e;
      e.name = o.at("name");
      e.variant_test_name = o.at("variant_test_name");
      e.formatted_name = o.at("formatted_name");
      if (o.at("aten_name").is_string()) e.aten_name = o.at("aten_name");
      e.dtypes = Masks(o.at("dtypes"));
      e.backward_dtypes = Masks(o.at("backward_dtypes"));
      e.dtypes_default = o.at("dtypes_default").get<DtypeMask>();
      e.dtypes_if_cuda = o.at("dtypes_if_cuda").get<DtypeMask>();
      e.cls = o.value("cls", -1);
      e.attr_row = AttrRow(o);
      e.entry = o.value("entry", "");
      for (const auto& flag : o.at("flags")) {
        auto f = std::find(s.op_flags.begin(), s.op_flags.end(), flag.get<std::string>());
        if (f != s.op_flags.end()) e.flags |= uint64_t{1} << (f - s.op_flags.begin());
      }
      s.ops.push_back(std::move(e));
    }
    s.op_lists = j.at("op_lists").get<std::map<std::string, std::vector<int>>>();
    for (const auto& o : j.at("modules")) {
      ModuleInfoEntry m;
      m.name = o.at("name");
      m.formatted_name = o.at("formatted_name");
      m.module_cls = o.value("module_cls", "");
      m.train_and_eval_differ = o.at("train_and_eval_differ");
      m.dtypes = Masks(o.at("dtypes"));
      m.attr_row = AttrRow(o);
      m.entry = o.value("entry", "");
      if (auto p = o.find("ctor_params"); p != o.end() && p->is_array())
        m.ctor_params = p->get<std::vector<std::string>>();
      s.modules.push_back(std::move(m));
    }
    s.module_lists = j.at("module_lists").get<std::map<std::string, std::vector<int>>>();
    s.operator_kernel_keys = j.at("operator_kernel_keys").get<std::vector<std::string>>();
    const auto& operators = j.at("operators");
    s.operators.reserve(operators.size());
    // Operator tags came later within format 4: a snapshot without them
    // has operators with no tags.
    if (auto tags = j.find("operator_tags"); tags != j.end())
      s.operator_tags = tags->get<std::vector<std::string>>();
    for (const auto& o : operators)
      s.operators.push_back({o.at(0).get<std::string>(), o.at(1).get<std::string>(),
                             o.at(2).get<uint32_t>(), o.size() > 3 ? o.at(3).get<uint64_t>() : 0});
    if (!std::is_sorted(s.operators.begin(), s.operators.end(),
                        [](const auto& a, const auto& b) { return a.name < b.name; }))
      throw std::runtime_error(path + ": operator registry is not sorted by name");
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": malformed torch snapshot: " + e.what());
  }
  for (const auto& [name, idx] : s.op_lists)
    for (int i : idx)
      if (i < 0 || i >= static_cast<int>(s.ops.size()))
        throw std::runtime_error(path + ": op list " + name + " has a bad index");
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
      if (!sig.empty() && sig == LocationSignature(python, origin) && fs::exists(target, ec))
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
  fs::path version_py = fs::path(origin).parent_path() / "version.py";
  std::string key =
      core::HexDigest(core::ContentHash(ReadFile(version_py.string()) + kSnapshotScript));
  fs::path target = dir / (key + ".json");
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
