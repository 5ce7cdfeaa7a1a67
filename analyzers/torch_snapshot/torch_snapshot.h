// A snapshot of what an installed torch knows: its test metadata (OpInfos,
// ModuleInfos, dtype helpers), read by the scanner so that `@ops(op_db)` and
// `all_types_and(torch.half)` expand without importing anything from the
// scanned tree, and its dispatcher's operator registry (schemas and the
// keys torch has kernels for), read by backend scans, queries and
// admission. snapshot_torch.py writes it; docs/scan.md explains why.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace testmap::torch_snapshot {

class AttributeColumns;

// A set of dtypes: bit i stands for TorchSnapshot::dtype_names[i]. Sets
// stay bitmasks until used, which keeps loading a snapshot cheap.
using DtypeMask = uint64_t;

// A Python value as the snapshot records it (snapshot_torch.py's plain()):
// what a filter such as `op.ref is not None` or `op.domain != (None, None)`
// can compare. Functions, dicts and other objects are kObject with their
// truthiness; kAbsent marks an attribute the object does not have.
struct PlainValue {
  enum class Kind : uint8_t {
    kAbsent,
    kNone,
    kBool,
    kInt,
    kFloat,
    kStr,
    kDtype,
    kList,
    kObject,
    kNamed,   // an object with a str __name__ (class, function, module): s
    kNumber,  // a number without a plain spelling (inf, a huge int, complex)
    kEnum,    // an Enum member: s is `<class>.<member>`
  };
  Kind kind = Kind::kAbsent;
  bool truthy = false;  // kBool's value; kObject's bool()
  int64_t i = 0;
  double f = 0;
  // kStr's value; kDtype's torch name; kEnum's class and member
  // (`torch.testing._internal.opinfo.core.SpectralFuncType.OneD`)
  std::string s;
  std::vector<PlainValue> items;
};

// A plain Enum class (no int/str mixin) that torch's test modules bind or
// an OpInfo attribute holds a member of (format 6): `op.ndimensional ==
// SpectralFuncType.OneD` compares members of it.
struct EnumClass {
  std::string qualified;  // `torch.testing._internal.opinfo.core.SpectralFuncType`
  // Every member name -> the canonical member it is (an alias names another).
  std::map<std::string, std::string> members;
};

// A legacy dtype helper that takes arguments (`get_all_dtypes(include_bool=
// False)`, `get_all_math_dtypes("cpu")`): its parameters and its result for
// each argument combination, keyed by the arguments joined with ','
// (`True,False,...` or `cpu`).
struct DtypeHelperCall {
  std::vector<std::string> params;
  std::vector<std::optional<bool>> defaults;  // nullopt: no default (a device string)
  std::map<std::string, std::vector<std::string>> results;
};

struct OpInfoEntry {
  std::string name;               // `nn.functional.relu`
  std::string variant_test_name;  // `` or `with_dim`...
  std::string formatted_name;     // `nn_functional_relu`
  std::string aten_name;
  std::vector<DtypeMask> dtypes, backward_dtypes;  // per TorchSnapshot::device_types
  DtypeMask dtypes_default = 0, dtypes_if_cuda = 0;
  uint64_t flags = 0;    // bit i: TorchSnapshot::op_flags[i] is True
  int cls = -1;          // index into TorchSnapshot::op_classes
  std::string attr_row;  // attribute values, encoded; see TorchSnapshot::OpAttribute
  std::string entry;     // indices into TorchSnapshot::entry_lines; see EntryLines
};

struct ModuleInfoEntry {
  std::string name;            // `nn.Linear`
  std::string formatted_name;  // `nn_Linear`
  std::string module_cls;      // `torch.nn.Linear`
  bool train_and_eval_differ = false;
  std::vector<DtypeMask> dtypes;  // per TorchSnapshot::device_types
  std::string attr_row;           // see TorchSnapshot::ModuleAttribute
  // inspect.signature(module_cls).parameters, when inspect could read it.
  std::optional<std::vector<std::string>> ctor_params;
  std::string entry;  // indices into TorchSnapshot::entry_lines; see EntryLines
};

// One operator overload of the dispatcher's registry (after importing
// torch's test machinery, which registers a few operators of its own).
// TorchScript-only overloads (`aten::add.int`) are not in it: they never
// reach a dispatch key, though `torch.ops.aten.add.overloads()` lists them.
struct OperatorEntry {
  std::string name;    // `aten::add.Tensor`, `aten::_scaled_mm` (core/op_names.h)
  std::string schema;  // `aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor`
  uint32_t kernels = 0;  // bit i: torch has a kernel for TorchSnapshot::operator_kernel_keys[i]
  uint64_t tags = 0;     // bit i: the overload has torch.Tag TorchSnapshot::operator_tags[i]
};

struct TorchSnapshot {
  std::string torch_version, torch_git_version;
  std::string content_hash;                          // of the snapshot file; keys the scan cache
  std::map<std::string, std::string> dtype_aliases;  // `half` -> `float16`
  std::map<std::string, std::vector<std::string>> dtype_helpers;  // `all_types` -> [...]
  std::vector<std::string> all_dtypes, any_dtype_order;
  std::vector<std::string> dtype_names, device_types, op_flags;
  std::vector<OpInfoEntry> ops;
  // The OpInfo lists of every torch.testing._internal module, by module and
  // name (format 6): `torch.testing._internal.custom_op_db.custom_op_db` ->
  // indices into ops. A list a module re-exports is under each name.
  std::map<std::string, std::vector<int>> op_lists;
  std::vector<ModuleInfoEntry> modules;
  std::map<std::string, std::vector<int>> module_lists;  // the same for ModuleInfos
  std::vector<EnumClass> enum_classes;                   // sorted by qualified name
  // The Enum classes torch's test modules bind, by module and name
  // (`torch.testing._internal.common_methods_invocations.SpectralFuncType`)
  // -> index into enum_classes.
  std::map<std::string, int> enum_names;
  std::vector<std::string> op_attr_names, module_attr_names;  // sorted
  std::vector<std::vector<std::string>> op_classes;           // class names of an OpInfo's MRO
  // What an OpInfo/ModuleInfo gives a test besides its dtype tables, each
  // distinct line once (format 5): `decorate\tCLS\tTEST\tDEVICE\tDTYPES\t
  // T|F\tDECORATORS` per DecorateInfo (skips and xfails included; `*` for
  // "any", several names comma-separated, T|F its active_if) and `func\tATTR\t
  // module.qualname#digest` per input function (the digest is of its
  // source). Content identities of @ops/@modules tests hash them.
  std::vector<std::string> entry_lines;
  std::map<std::string, DtypeHelperCall> dtype_helper_calls;
  // Plain constants of torch.testing._internal.* modules, by module:
  // `torch.testing._internal.common_utils` -> {`TEST_WITH_ROCM`: False}.
  std::map<std::string, std::map<std::string, PlainValue>> module_constants;
  // dir() of each of those modules, sorted: what `from M import X` finds.
  std::map<std::string, std::vector<std::string>> module_names;
  std::map<std::string, std::vector<std::string>> module_alls;  // `torch._refs` -> __all__
  // What the public names of modules outside torch's test machinery are
  // (`torch.channels_last` an object, `torch.add` named `add`, `sys.maxsize`
  // an int): pytest and torch's parametrize name tests by them. See
  // ExternalName.
  struct ExternalModule {
    std::vector<std::string> names;  // sorted
    std::vector<PlainValue> values;  // aligned with names
  };
  std::map<std::string, ExternalModule> external_names;
  std::vector<std::string> operator_kernel_keys;  // `CompositeImplicitAutograd`, `CPU`, ...
  std::vector<std::string> operator_tags;         // torch.Tag names: `core`, `reduction`...
  std::vector<OperatorEntry> operators;           // sorted by name
  std::string path;                               // the file it was loaded from

 private:
  // Made on the first attribute read (attribute_columns.h).
  std::shared_ptr<std::once_flag> attrs_once_ = std::make_shared<std::once_flag>();
  mutable std::shared_ptr<AttributeColumns> op_attrs_, module_attrs_;
  void MakeAttributeColumns() const;

 public:
  // Dtypes of an OpInfo/ModuleInfo on `device_type`; device types the
  // snapshot has no table for (privateuse1 backends) use the default table.
  std::vector<std::string> OpDtypes(const OpInfoEntry& op, const std::string& device_type,
                                    bool backward) const;
  std::vector<std::string> ModuleDtypes(const ModuleInfoEntry& m,
                                        const std::string& device_type) const;
  std::vector<std::string> Decode(DtypeMask mask) const;
  // The entry lines (entry_lines) of an OpInfo's or ModuleInfo's `entry`,
  // sorted as the snapshot wrote them.
  std::vector<std::string_view> EntryLines(const std::string& entry) const;
  // An OpInfo flag (`supports_out`...), if the snapshot records it.
  std::optional<bool> OpFlag(const OpInfoEntry& op, const std::string& flag) const;

  // An instance attribute of an OpInfo/ModuleInfo; nullptr if the snapshot
  // has no column of that name, or the object's row is malformed (kAbsent
  // if this object lacks it). `op` must be one of `ops` (`m` of `modules`).
  // Values are decoded as they are first read, thread-safely: most files
  // never filter on attributes, and the rest on a few columns.
  const PlainValue* OpAttribute(const OpInfoEntry& op, std::string_view name) const;
  const PlainValue* ModuleAttribute(const ModuleInfoEntry& m, std::string_view name) const;
  // What `module.name` is (torch, torch.nn, math, sys, numpy...), or
  // nullptr if the snapshot does not know that module or name.
  const PlainValue* ExternalName(const std::string& module, std::string_view name) const;
  // The index into enum_classes of a qualified class name, or -1.
  int FindEnumClass(std::string_view qualified) const;
  // Whether `from module import name` succeeds; nullopt if the snapshot
  // does not know `module`.
  std::optional<bool> ModuleHasName(const std::string& module, std::string_view name) const;

  // The registry entry of a canonical overload name, or nullptr.
  const OperatorEntry* FindOperator(std::string_view canonical) const;
  // Every overload of a packet (`aten::add`), in name order.
  std::vector<const OperatorEntry*> PacketOverloads(std::string_view packet) const;
  // Whether torch registers a kernel for `op` on `dispatch_key`; nullopt
  // when the snapshot does not record that key.
  std::optional<bool> HasKernel(const OperatorEntry& op, std::string_view dispatch_key) const;
};

// The format a snapshot file declares (`"format": "testmap-torch-snapshot/6"`).
inline constexpr const char* kSnapshotFormat = "testmap-torch-snapshot/6";

// Whether `bytes` declare this format, without parsing them: a cheap check
// of a snapshot named by the user before anything needs its content.
bool LooksLikeTorchSnapshot(std::string_view bytes);

// The torch version a snapshot's bytes declare ("" if none), without
// parsing them: what a scan reports whether or not a file needed the
// snapshot's content.
std::string SnapshotTorchVersion(std::string_view bytes);

// Parses a snapshot file. Throws std::runtime_error that starts with the
// file's path on bad input (`not a torch snapshot: ...` for bad JSON,
// `malformed torch snapshot: ...` naming a missing or mistyped key, a bad
// index) or an unknown format version, and never returns part of a snapshot.
TorchSnapshot LoadTorchSnapshot(const std::string& path);
// The same, for the bytes of `path` already read (a scan reads them once,
// to key its cache, and parses them only when a file needs them).
TorchSnapshot ParseTorchSnapshot(const std::string& path, const std::string& bytes);

// Returns the path of a snapshot for the torch that `python` imports,
// creating it under `cache_dir` when missing. The cache key is torch's
// version.py content, so reinstalling another torch invalidates it without
// importing torch on the fast path. Where `python` found torch is recorded
// with the stat of the Python, torch's package, its version.py and
// site-packages (and keyed by PYTHONPATH and the like): while none of them
// changed, Python is not started at all. Throws std::runtime_error with one line
// naming `python` when it does not exist or has no torch, and with the
// snapshot script's error output when taking the snapshot fails.
std::string EnsureTorchSnapshot(const std::string& python, const std::string& cache_dir);

// The Python whose torch is snapshotted when the user names none: the
// active virtualenv's ($VIRTUAL_ENV/bin/python), else $TESTMAP_PYTHON,
// else the Python testmap was configured with (CMake's TESTMAP_PYTHON).
// `why` says which of them it is, for messages.
std::string DefaultTorchPython(std::string* why = nullptr);

// The default cache directory: $TESTMAP_CACHE_DIR, else
// $XDG_CACHE_HOME/testmap, else ~/.cache/testmap.
std::string DefaultCacheDir();

}  // namespace testmap::torch_snapshot
