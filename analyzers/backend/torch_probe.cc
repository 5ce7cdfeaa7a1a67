#include "analyzers/backend/torch_probe.h"

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "analyzers/backend/embedded_scripts.h"
#include "analyzers/backend/subprocess.h"
#include "core/content_hash.h"
#include "core/read_file.h"

namespace testmap::backend {
namespace {

constexpr const char* kFormat = "testmap-torch-probe/2";

std::string Trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// torch's version.py and location, plus the probe script: a reinstall,
// another torch or a new probe all make a new key.
std::string Identity(const std::string& python) {
  ProcessResult r = RunProcess(
      {python, "-c", "import importlib.util as u; print(u.find_spec('torch').origin)"}, "");
  if (r.status != 0) throw std::runtime_error("`" + python + "` cannot find torch: " + Trim(r.err));
  std::string origin = Trim(r.out);
  std::string dir = origin.substr(0, origin.rfind('/'));
  std::string version = core::ReadInputFile(dir + "/version.py");
  return core::HexDigest(core::ContentHash(dir + "\n" + version + kTorchProbeScript));
}

}  // namespace

TorchProbe ProbeTorch(const std::string& python, python::KeyValueCache* cache) {
  TorchProbe p;
  p.identity = Identity(python);
  std::string key = "probe/" + p.identity;
  std::optional<std::string> text = cache ? cache->Get(key) : std::nullopt;
  bool fresh = !text;
  if (fresh) {
    ProcessResult r = RunProcess({python, "-c", kTorchProbeScript}, "");
    if (r.status != 0) {
      std::string err = r.err.size() > 2000 ? "..." + r.err.substr(r.err.size() - 2000) : r.err;
      throw std::runtime_error("torch probe with `" + python + "` failed:\n" + err);
    }
    text = std::move(r.out);
  }
  nlohmann::json j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("format", "") != kFormat)
    throw std::runtime_error("torch probe with `" + python + "` printed no " + kFormat);
  try {
    p.torch_version = j.at("torch_version");
    p.cxx_standard = j.at("cxx_standard");
    p.include_paths = j.at("include_paths").get<std::vector<std::string>>();
    p.python_include = j.at("python_include");
    p.dispatch_keys = j.at("dispatch_keys").get<std::vector<std::string>>();
    p.device_keys = j.at("device_keys").get<std::map<std::string, std::string>>();
    p.torchscript_only_schemas = j.at("torchscript_only_schemas").get<std::vector<std::string>>();
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("torch probe: ") + e.what());
  }
  if (fresh && cache) cache->Put(key, *text);
  return p;
}

}  // namespace testmap::backend
