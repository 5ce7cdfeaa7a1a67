#include "core/node_id.h"

#include <vector>

#include "core/device_names.h"
#include "core/dtype_names.h"

namespace testmap::core {
namespace {

bool StripSuffix(std::string& s, std::string_view suffix) {
  if (s.size() > suffix.size() + 1 &&
      s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0 &&
      s[s.size() - suffix.size() - 1] == '_') {
    s.resize(s.size() - suffix.size() - 1);
    return true;
  }
  return false;
}

}  // namespace

NodeId NodeId::Parse(std::string_view nodeid) {
  // Parameter ids may contain "::" (e.g. "[a::b]"), so only split outside
  // the brackets of the last part.
  std::string_view head = nodeid;
  std::string_view params;
  if (size_t bracket = nodeid.find('['); bracket != std::string_view::npos) {
    head = nodeid.substr(0, bracket);
    params = nodeid.substr(bracket);
  }
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t sep = head.find("::", start);
    parts.push_back(
        head.substr(start, sep == std::string_view::npos ? head.size() - start : sep - start));
    if (sep == std::string_view::npos) break;
    start = sep + 2;
  }
  NodeId out;
  out.path = std::string(parts.front());
  if (parts.size() == 1) {
    out.path += params;
    return out;
  }
  out.name = std::string(parts.back()) + std::string(params);
  for (size_t i = 1; i + 1 < parts.size(); ++i) {
    if (!out.cls.empty()) out.cls += "::";
    out.cls += parts[i];
  }
  return out;
}

std::string FileKey(std::string_view path) {
  if (path.size() > 3 && path.substr(path.size() - 3) == ".py") path.remove_suffix(3);
  return std::string(path);
}

std::string TestFileIdentity(std::string_view path) {
  constexpr std::string_view kPyTorchTestDir = "test/";
  while (path.starts_with("./")) path.remove_prefix(2);
  if (path.size() > kPyTorchTestDir.size() && path.starts_with(kPyTorchTestDir))
    path.remove_prefix(kPyTorchTestDir.size());
  return FileKey(path);
}

std::vector<std::string> FileKeyAliases(std::string_view file_key) {
  std::vector<std::string> out = {std::string(file_key)};
  std::string identity = TestFileIdentity(file_key);
  if (identity != file_key) out.push_back(std::move(identity));
  return out;
}

std::string JUnitModule(std::string_view path) {
  std::string module = FileKey(path);
  for (char& c : module) {
    if (c == '/' || c == '\\') c = '.';
  }
  return module;
}

std::string GuessGenericId(std::string_view nodeid) {
  NodeId parts = NodeId::Parse(nodeid);
  std::string name = parts.name.substr(0, parts.name.find('['));
  // Dtypes come last (several for multi-dtype tests), then the device.
  for (bool more = true; more;) {
    more = false;
    for (const std::string& d : AllDtypes()) more = more || StripSuffix(name, d);
  }
  for (const std::string& d : KnownDeviceTypes()) {
    if (StripSuffix(name, d)) break;
  }
  std::string cls = parts.cls;
  for (const std::string& d : KnownDeviceTypes()) {
    std::string upper = DeviceClassSuffix(d);
    if (cls.size() > upper.size() &&
        cls.compare(cls.size() - upper.size(), upper.size(), upper) == 0) {
      cls.resize(cls.size() - upper.size());
      break;
    }
  }
  return parts.path + "::" + cls + "::" + name;
}

}  // namespace testmap::core
