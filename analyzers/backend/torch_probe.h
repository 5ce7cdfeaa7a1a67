// What the backend scan needs from the torch a backend builds against,
// besides the torch snapshot's operator registry: include paths and C++
// standard for the Clang reader's default flags, dispatch key names and
// torch.library's device-to-key mapping. Taken by torch_probe.py once per
// torch install and kept in the backend cache; locating the install to key
// it costs one Python start without importing torch.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "analyzers/python/kv_cache.h"

namespace testmap::backend {

struct TorchProbe {
  std::string torch_version;
  std::string cxx_standard;                // `c++20`
  std::vector<std::string> include_paths;  // torch.utils.cpp_extension.include_paths()
  std::string python_include;              // for torch/extension.h (pybind11)
  std::string identity;                    // hex; keys every cache entry that depends on torch
  std::vector<std::string> dispatch_keys;  // every c10::DispatchKey name
  std::map<std::string, std::string>
      device_keys;  // `cpu` -> `CPU`, `privateuseone` -> `PrivateUse1`
  // Schemas of overloads only TorchScript has (`aten::floor.int(int a) -> int`).
  std::vector<std::string> torchscript_only_schemas;
};

// Probes the torch `python` imports, through `cache` when given (may be
// null). Throws std::runtime_error naming the Python on failure.
TorchProbe ProbeTorch(const std::string& python, python::KeyValueCache* cache);

}  // namespace testmap::backend
