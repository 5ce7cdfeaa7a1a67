// A snapshot of the installed torch's test metadata (OpInfos, ModuleInfos,
// dtype helpers), read by the scanner so that `@ops(op_db)` and
// `all_types_and(torch.half)` expand without importing anything from the
// scanned tree. snapshot_torch.py writes it; docs/scan.md explains why.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace testmap::python {

// A set of dtypes: bit i stands for TorchSnapshot::dtype_names[i]. Sets
// stay bitmasks until used, which keeps loading a snapshot cheap.
using DtypeMask = uint64_t;

struct OpInfoEntry {
  std::string name;               // `nn.functional.relu`
  std::string variant_test_name;  // `` or `with_dim`...
  std::string formatted_name;     // `nn_functional_relu`
  std::string aten_name;
  std::vector<DtypeMask> dtypes, backward_dtypes;  // per TorchSnapshot::device_types
  DtypeMask dtypes_default = 0, dtypes_if_cuda = 0;
  uint64_t flags = 0;  // bit i: TorchSnapshot::op_flags[i] is True
};

struct ModuleInfoEntry {
  std::string name;            // `nn.Linear`
  std::string formatted_name;  // `nn_Linear`
  std::string module_cls;      // `torch.nn.Linear`
  bool train_and_eval_differ = false;
  std::vector<DtypeMask> dtypes;  // per TorchSnapshot::device_types
};

struct TorchSnapshot {
  std::string torch_version, torch_git_version;
  std::string content_hash;                          // of the snapshot file; keys the scan cache
  std::map<std::string, std::string> dtype_aliases;  // `half` -> `float16`
  std::map<std::string, std::vector<std::string>> dtype_helpers;  // `all_types` -> [...]
  std::vector<std::string> all_dtypes, any_dtype_order;
  std::vector<std::string> dtype_names, device_types, op_flags;
  std::vector<OpInfoEntry> ops;
  std::map<std::string, std::vector<int>> op_lists;  // `op_db` -> indices into ops
  std::vector<ModuleInfoEntry> modules;
  std::map<std::string, std::vector<int>> module_lists;

  // Dtypes of an OpInfo/ModuleInfo on `device_type`; device types the
  // snapshot has no table for (privateuse1 backends) use the default table.
  std::vector<std::string> OpDtypes(const OpInfoEntry& op, const std::string& device_type,
                                    bool backward) const;
  std::vector<std::string> ModuleDtypes(const ModuleInfoEntry& m,
                                        const std::string& device_type) const;
  std::vector<std::string> Decode(DtypeMask mask) const;
  // An OpInfo flag (`supports_out`...), if the snapshot records it.
  std::optional<bool> OpFlag(const OpInfoEntry& op, const std::string& flag) const;
};

// Parses a snapshot file. Throws std::runtime_error naming the file on bad
// input or an unknown format version.
TorchSnapshot LoadTorchSnapshot(const std::string& path);

// Returns the path of a snapshot for the torch that `python` imports,
// creating it under `cache_dir` when missing. The cache key is torch's
// version.py content, so reinstalling another torch invalidates it without
// importing torch on the fast path. Throws std::runtime_error on failure.
std::string EnsureTorchSnapshot(const std::string& python, const std::string& cache_dir);

// The default cache directory: $TESTMAP_CACHE_DIR, else
// $XDG_CACHE_HOME/testmap, else ~/.cache/testmap.
std::string DefaultCacheDir();

}  // namespace testmap::python
