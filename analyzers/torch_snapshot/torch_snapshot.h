// A snapshot of what an installed torch knows: its test metadata (OpInfos,
// ModuleInfos, dtype helpers), read by the scanner so that `@ops(op_db)` and
// `all_types_and(torch.half)` expand without importing anything from the
// scanned tree, and its dispatcher's operator registry (schemas and the
// keys torch has kernels for), read by backend scans, queries and
// admission. snapshot_torch.py writes it; docs/scan.md explains why.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::torch_snapshot {

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

// One operator overload of the dispatcher's registry (after importing
// torch's test machinery, which registers a few operators of its own).
// TorchScript-only overloads (`aten::add.int`) are not in it: they never
// reach a dispatch key, though `torch.ops.aten.add.overloads()` lists them.
struct OperatorEntry {
  std::string name;    // `aten::add.Tensor`, `aten::_scaled_mm` (core/op_names.h)
  std::string schema;  // `aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`
  uint32_t kernels = 0;  // bit i: torch has a kernel for TorchSnapshot::operator_kernel_keys[i]
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
  std::vector<std::string> operator_kernel_keys;  // `CompositeImplicitAutograd`, `CPU`, ...
  std::vector<OperatorEntry> operators;           // sorted by name

  // Dtypes of an OpInfo/ModuleInfo on `device_type`; device types the
  // snapshot has no table for (privateuse1 backends) use the default table.
  std::vector<std::string> OpDtypes(const OpInfoEntry& op, const std::string& device_type,
                                    bool backward) const;
  std::vector<std::string> ModuleDtypes(const ModuleInfoEntry& m,
                                        const std::string& device_type) const;
  std::vector<std::string> Decode(DtypeMask mask) const;
  // An OpInfo flag (`supports_out`...), if the snapshot records it.
  std::optional<bool> OpFlag(const OpInfoEntry& op, const std::string& flag) const;

  // The registry entry of a canonical overload name, or nullptr.
  const OperatorEntry* FindOperator(std::string_view canonical) const;
  // Every overload of a packet (`aten::add`), in name order.
  std::vector<const OperatorEntry*> PacketOverloads(std::string_view packet) const;
  // Whether torch registers a kernel for `op` on `dispatch_key`; nullopt
  // when the snapshot does not record that key.
  std::optional<bool> HasKernel(const OperatorEntry& op, std::string_view dispatch_key) const;
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

}  // namespace testmap::torch_snapshot
