#include "analyzers/torch_snapshot/torch_snapshot.h"

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

constexpr const char* kFormat = "testmap-torch-snapshot/3";

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

size_t DeviceIndex(const std::vector<std::string>& devices, const std::string& device_type) {
  for (size_t i = 0; i < devices.size(); ++i)
    if (devices[i] == device_type) return i;
  return 0;  // OpInfo.supported_dtypes' default branch: the `dtypes` (CPU) table
}

std::vector<DtypeMask> Masks(const nlohmann::json& j) { return j.get<std::vector<DtypeMask>>(); }

}  // namespace

std::vector<std::string> TorchSnapshot::Decode(DtypeMask mask) const {
  std::vector<std::string> out;
  for (size_t i = 0; i < dtype_names.size() && i < 64; ++i)
    if (mask & (DtypeMask{1} << i)) out.push_back(dtype_names[i]);
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
      s.modules.push_back(std::move(m));
    }
    s.module_lists = j.at("module_lists").get<std::map<std::string, std::vector<int>>>();
    s.operator_kernel_keys = j.at("operator_kernel_keys").get<std::vector<std::string>>();
    const auto& operators = j.at("operators");
    s.operators.reserve(operators.size());
    for (const auto& o : operators)
      s.operators.push_back(
          {o.at(0).get<std::string>(), o.at(1).get<std::string>(), o.at(2).get<uint32_t>()});
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
  return s;
}

std::string DefaultCacheDir() {
  if (const char* d = std::getenv("TESTMAP_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/testmap";
  if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/testmap";
  return ".testmap-cache";
}

std::string EnsureTorchSnapshot(const std::string& python, const std::string& cache_dir) {
  // Locating torch without importing it takes milliseconds; importing it
  // takes seconds, so that only happens when the snapshot is missing.
  std::string origin =
      RunCapture({python, "-c", "import importlib.util as u; print(u.find_spec('torch').origin)"});
  while (!origin.empty() && (origin.back() == '\n' || origin.back() == '\r')) origin.pop_back();
  fs::path version_py = fs::path(origin).parent_path() / "version.py";
  std::string key =
      core::HexDigest(core::ContentHash(ReadFile(version_py.string()) + kSnapshotScript));
  fs::path dir = fs::path(cache_dir) / "torch-snapshots";
  fs::path target = dir / (key + ".json");
  if (fs::exists(target)) return target.string();

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
  return target.string();
}

}  // namespace testmap::torch_snapshot
