// Device identity: the device types PyTorch's test machinery instantiates
// tests for, as they appear in node ids. `instantiate_device_type_tests`
// names a class `Generic + DEVICE.upper()` (TestFooCPU, TestFooPRIVATEUSE1)
// and a method `..._device_dtypes` (`test_add_cpu_float32`, or the
// PrivateUse1 backend's renamed name: `test_add_openreg_float32`).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace testmap::core {

// Device types and backend names seen in node ids: cpu, cuda, xpu, mps,
// meta, lazy, hpu, npu, mtia, xla, privateuse1 and the PrivateUse1 names of
// known backends (openreg, spyre).
const std::vector<std::string>& KnownDeviceTypes();

// Whether `name` is one of KnownDeviceTypes().
bool IsKnownDeviceType(std::string_view name);

// A `--device` filter: one that no test ran on (`seen`) and torch does not
// name is a typo (`cdua`), not an empty answer. Throws UnknownNameError
// with the closest known and seen devices; does nothing for "" (no filter).
void CheckDeviceFilter(const std::string& device, const std::vector<std::string>& seen);

// The suffix instantiate_device_type_tests gives a class: `cpu` -> `CPU`.
std::string DeviceClassSuffix(std::string_view device_type);

}  // namespace testmap::core
