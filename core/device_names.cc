#include "core/device_names.h"

#include <algorithm>
#include <cctype>

#include "core/closest_names.h"
#include "core/errors.h"

namespace testmap::core {

const std::vector<std::string>& KnownDeviceTypes() {
  static const std::vector<std::string> kDevices = {
      "cpu", "cuda", "xpu",           "mps",         "meta",    "lazy",  "hpu",
      "npu", "mtia", "privateuseone", "privateuse1", "openreg", "spyre", "xla"};
  return kDevices;
}

bool IsKnownDeviceType(std::string_view name) {
  const auto& all = KnownDeviceTypes();
  return std::find(all.begin(), all.end(), name) != all.end();
}

void CheckDeviceFilter(const std::string& device, const std::vector<std::string>& seen) {
  if (device.empty() || IsKnownDeviceType(device) ||
      std::find(seen.begin(), seen.end(), device) != seen.end()) {
    return;
  }
  std::vector<std::string> known = KnownDeviceTypes();
  for (const auto& d : seen)
    if (!IsKnownDeviceType(d)) known.push_back(d);
  throw UnknownNameError("device", device, ClosestNames(device, known));
}

std::string DeviceClassSuffix(std::string_view device_type) {
  std::string upper(device_type);
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return upper;
}

}  // namespace testmap::core
