// The torch snapshot against the live torch it was taken from: the
// operator registry (names, schemas, kernels per dispatch key) must equal
// what the dispatcher itself answers, asked independently here.
#include "analyzers/torch_snapshot/torch_snapshot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/support/command.h"
#include "tests/support/temp_dir.h"

namespace testmap::torch_snapshot {
namespace {

const TorchSnapshot& Snapshot() {
  static testing::TempDir cache;
  static TorchSnapshot s =
      LoadTorchSnapshot(EnsureTorchSnapshot(TESTMAP_PYTHON, cache.path().string()));
  return s;
}

// Asks the live dispatcher, in a separate python, about a few operators,
// after importing what the snapshot imports (torch's test machinery
// registers operators of its own).
nlohmann::json LiveDispatcher() {
  auto r = testing::Python({"-c", R"(
import json, torch
import torch.testing._internal.common_methods_invocations
import torch.testing._internal.common_modules
ops = ["aten::add.Tensor", "aten::linear", "aten::_scaled_mm", "aten::view", "aten::mm"]
keys = ["CompositeImplicitAutograd", "CompositeExplicitAutograd", "CPU", "Meta"]
names = torch._C._dispatch_get_all_op_names()
# Dispatcher overloads only: torch.ops.aten.add.overloads() also lists
# TorchScript-only ones (add.int, add.str) that never reach a backend.
out = {"ops": {}, "add_overloads": sorted(n for n in names if n.split(".")[0] == "aten::add"),
       "count": len(names)}
for name in ops:
    ns, rest = name.split("::")
    packet, _, overload = rest.partition(".")
    op = getattr(getattr(getattr(torch.ops, ns), packet), overload or "default")
    out["ops"][name] = {"schema": str(op._schema), "kernels": [
        k for k in keys if torch._C._dispatch_has_kernel_for_dispatch_key(name, k)]}
print(json.dumps(out))
)"});
  EXPECT_EQ(r.rc, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

TEST(TorchSnapshot, OperatorRegistryEqualsTheLiveDispatcher) {
  const TorchSnapshot& s = Snapshot();
  nlohmann::json live = LiveDispatcher();
  EXPECT_EQ(s.operators.size(), live["count"].get<size_t>());
  for (const auto& [name, want] : live["ops"].items()) {
    const OperatorEntry* op = s.FindOperator(name);
    ASSERT_NE(op, nullptr) << name;
    EXPECT_EQ(op->schema, want["schema"].get<std::string>()) << name;
    std::set<std::string> kernels(want["kernels"].begin(), want["kernels"].end());
    for (const char* key :
         {"CompositeImplicitAutograd", "CompositeExplicitAutograd", "CPU", "Meta"})
      EXPECT_EQ(s.HasKernel(*op, key), kernels.count(key) == 1) << name << " " << key;
  }
  EXPECT_EQ(s.HasKernel(*s.FindOperator("aten::mm"), "NotAKey"), std::nullopt);
}

TEST(TorchSnapshot, PacketsExpandToExactlyTheirOverloads) {
  const TorchSnapshot& s = Snapshot();
  std::vector<std::string> got;
  for (const OperatorEntry* op : s.PacketOverloads("aten::add")) got.push_back(op->name);
  std::vector<std::string> want = LiveDispatcher()["add_overloads"];
  EXPECT_EQ(got, want);  // not add_, addmm, addcdiv...
  EXPECT_TRUE(s.PacketOverloads("aten::no_such_op").empty());
  EXPECT_EQ(s.FindOperator("aten::add"), nullptr);  // a packet is not an overload
}

// What filters in test files read, against the live objects: every
// OpInfo's and ModuleInfo's attributes the real files filter on, the
// class hierarchy, constructor parameters, constants, the legacy dtype
// helpers and import names. Asked in a separate python, independently of
// snapshot_torch.py's encoding.
TEST(TorchSnapshot, FilterAttributesEqualTheLiveObjects) {
  auto r = testing::Python({"-c", R"(
import inspect, json, torch
from torch.testing._internal import common_methods_invocations as cmi, common_modules as cm
from torch.testing._internal import common_dtype, common_utils
def dt(d): return str(d).split(".")[1]
ops = []
for op in cmi.op_db:
    ops.append({"name": op.name, "variant": op.variant_test_name,
                "ref_none": op.ref is None, "domain": list(getattr(op, "domain", [])) or None,
                "multi": getattr(op, "supports_multiple_dims", None),
                "identity": getattr(op, "identity", "absent") if isinstance(getattr(op, "identity", None), (int, type(None))) else "other",
                "nan_policy": getattr(op, "nan_policy", "absent"),
                "error_inputs_none": op.error_inputs_func is None,
                "promotes": op.promotes_int_to_float,
                "mro": [c.__name__ for c in type(op).__mro__ if c is not object]})
mods = [{"name": m.name, "gradgrad": m.supports_gradgrad,
         "error_none": m.module_error_inputs_func is None,
         "params": list(inspect.signature(m.module_cls).parameters)} for m in cm.module_db]
print(json.dumps({"ops": ops, "modules": mods,
    "rocm": common_utils.TEST_WITH_ROCM, "scipy": common_utils.TEST_SCIPY,
    "no_bool": [dt(d) for d in common_dtype.get_all_dtypes(include_half=True, include_bfloat16=True, include_bool=False)],
    "math_cpu": [dt(d) for d in common_dtype.get_all_math_dtypes("cpu")],
    "math_cuda": [dt(d) for d in common_dtype.get_all_math_dtypes("cuda")],
    "tags": {n: sorted(t.name for t in getattr(torch.ops.aten, n.split(".")[0]).default.tags)
             for n in ("sum", "mm", "relu", "nonzero")}}))
)"});
  ASSERT_EQ(r.rc, 0) << r.err;
  nlohmann::json live = nlohmann::json::parse(r.out);
  const TorchSnapshot& s = Snapshot();
  const std::vector<int>& op_db =
      s.op_lists.at("torch.testing._internal.common_methods_invocations.op_db");
  ASSERT_EQ(op_db.size(), live["ops"].size());
  for (size_t i = 0; i < op_db.size(); ++i) {
    const OpInfoEntry& op = s.ops[op_db[i]];
    const auto& want = live["ops"][i];
    SCOPED_TRACE(op.name + "." + op.variant_test_name);
    ASSERT_EQ(op.name, want["name"]);
    auto attr = [&](const char* name) {
      const PlainValue* v = s.OpAttribute(op, name);
      EXPECT_NE(v, nullptr) << name;
      return v ? *v : PlainValue{};
    };
    EXPECT_EQ(attr("ref").kind == PlainValue::Kind::kNone, want["ref_none"].get<bool>());
    EXPECT_EQ(attr("error_inputs_func").kind == PlainValue::Kind::kNone,
              want["error_inputs_none"].get<bool>());
    EXPECT_EQ(attr("promotes_int_to_float").truthy, want["promotes"].get<bool>());
    PlainValue domain = attr("domain");
    if (want["domain"].is_null()) {
      EXPECT_EQ(domain.kind, PlainValue::Kind::kAbsent);
    } else {
      ASSERT_EQ(domain.kind, PlainValue::Kind::kList);
      ASSERT_EQ(domain.items.size(), 2u);
      for (size_t k = 0; k < 2; ++k) {
        const auto& w = want["domain"][k];
        const PlainValue& d = domain.items[k];
        if (w.is_null())
          EXPECT_EQ(d.kind, PlainValue::Kind::kNone);
        else
          EXPECT_EQ(d.kind == PlainValue::Kind::kInt ? double(d.i) : d.f, w.get<double>());
      }
    }
    PlainValue multi = attr("supports_multiple_dims");
    if (want["multi"].is_null())
      EXPECT_EQ(multi.kind, PlainValue::Kind::kAbsent);
    else
      EXPECT_EQ(multi.truthy, want["multi"].get<bool>());
    PlainValue policy = attr("nan_policy");
    if (want["nan_policy"] == "absent")
      EXPECT_EQ(policy.kind, PlainValue::Kind::kAbsent);
    else if (want["nan_policy"].is_null())
      EXPECT_EQ(policy.kind, PlainValue::Kind::kNone);
    else
      EXPECT_EQ(policy.s, want["nan_policy"].get<std::string>());
    PlainValue identity = attr("identity");
    if (want["identity"].is_boolean())
      EXPECT_EQ(identity.kind == PlainValue::Kind::kBool && identity.truthy,
                want["identity"].get<bool>());
    else if (want["identity"].is_number_integer())
      EXPECT_EQ(identity.i, want["identity"].get<int>());
    else if (want["identity"].is_null())
      EXPECT_EQ(identity.kind, PlainValue::Kind::kNone);
    ASSERT_GE(op.cls, 0);
    EXPECT_EQ(s.op_classes[op.cls], want["mro"].get<std::vector<std::string>>());
  }
  const std::vector<int>& module_db =
      s.module_lists.at("torch.testing._internal.common_modules.module_db");
  ASSERT_EQ(module_db.size(), live["modules"].size());
  for (size_t i = 0; i < module_db.size(); ++i) {
    const ModuleInfoEntry& m = s.modules[module_db[i]];
    const auto& want = live["modules"][i];
    SCOPED_TRACE(m.name);
    EXPECT_EQ(s.ModuleAttribute(m, "supports_gradgrad")->truthy, want["gradgrad"].get<bool>());
    EXPECT_EQ(s.ModuleAttribute(m, "module_error_inputs_func")->kind == PlainValue::Kind::kNone,
              want["error_none"].get<bool>());
    ASSERT_TRUE(m.ctor_params.has_value());
    EXPECT_EQ(*m.ctor_params, want["params"].get<std::vector<std::string>>());
  }
  const auto& cu = s.module_constants.at("torch.testing._internal.common_utils");
  EXPECT_EQ(cu.at("TEST_WITH_ROCM").truthy, live["rocm"].get<bool>());
  EXPECT_EQ(cu.at("TEST_SCIPY").truthy, live["scipy"].get<bool>());
  const auto& all = s.dtype_helper_calls.at("get_all_dtypes");
  ASSERT_EQ(all.params,
            (std::vector<std::string>{"include_half", "include_bfloat16", "include_bool",
                                      "include_complex", "include_complex32", "include_qint"}));
  EXPECT_EQ(all.results.at("True,True,False,True,False,False"),
            live["no_bool"].get<std::vector<std::string>>());
  const auto& math = s.dtype_helper_calls.at("get_all_math_dtypes");
  EXPECT_EQ(math.results.at("cpu"), live["math_cpu"].get<std::vector<std::string>>());
  EXPECT_EQ(math.results.at("cuda"), live["math_cuda"].get<std::vector<std::string>>());
  for (const auto& [name, tags] : live["tags"].items()) {
    const OperatorEntry* op = s.FindOperator("aten::" + name);
    ASSERT_NE(op, nullptr) << name;
    std::vector<std::string> got;
    for (size_t i = 0; i < s.operator_tags.size(); ++i)
      if (op->tags & (uint64_t{1} << i)) got.push_back(s.operator_tags[i]);
    std::sort(got.begin(), got.end());
    EXPECT_EQ(got, tags.get<std::vector<std::string>>()) << name;
  }
  EXPECT_EQ(s.ModuleHasName("torch.testing._internal.common_utils", "TestCase"), true);
  EXPECT_EQ(s.ModuleHasName("torch.testing._internal.common_utils", "no_such_name"), false);
  // A submodule pytest can import though the snapshot never imported it.
  EXPECT_EQ(s.ModuleHasName("torch.testing._internal", "common_fsdp"), true);
  EXPECT_EQ(s.ModuleHasName("torch.nowhere", "x"), std::nullopt);
}

// OpInfo lists of modules besides common_methods_invocations and the Enum
// members OpInfos hold (format 6), against the live lists: every list of
// those modules by module and name, its ops in order, and each spectral
// function's `ndimensional` member.
TEST(TorchSnapshot, ListsOfEveryTestModuleAndEnumAttributesEqualTheLiveOnes) {
  auto r = testing::Python({"-c", R"(
import json
import torch
from torch.testing._internal.opinfo.core import OpInfo
import torch.testing._internal.common_methods_invocations as cmi
import torch.testing._internal.custom_op_db, torch.testing._internal.hop_db
import torch.testing._internal.opinfo.definitions.linalg as linalg
import torch.testing._internal.opinfo.definitions.nested as nested
lists = {}
for mod in (cmi, torch.testing._internal.custom_op_db, torch.testing._internal.hop_db, linalg, nested):
    for k, v in vars(mod).items():
        if isinstance(v, (list, tuple)) and v and all(isinstance(o, OpInfo) for o in v):
            lists[mod.__name__ + "." + k] = [o.formatted_name for o in v]
dims = [[o.formatted_name, type(o.ndimensional).__module__ + "." + type(o.ndimensional).__qualname__
         + "." + o.ndimensional.name] for o in cmi.spectral_funcs]
print(json.dumps({"lists": lists, "dims": dims}))
)"});
  ASSERT_EQ(r.rc, 0) << r.err;
  nlohmann::json live = nlohmann::json::parse(r.out);
  const TorchSnapshot& s = Snapshot();
  ASSERT_GT(live["lists"].size(), 20u);
  for (const auto& [name, want] : live["lists"].items()) {
    ASSERT_TRUE(s.op_lists.count(name)) << name;
    std::vector<std::string> got;
    for (int i : s.op_lists.at(name)) got.push_back(s.ops[i].formatted_name);
    EXPECT_EQ(got, want.get<std::vector<std::string>>()) << name;
  }
  const auto& spectral =
      s.op_lists.at("torch.testing._internal.common_methods_invocations.spectral_funcs");
  ASSERT_EQ(spectral.size(), live["dims"].size());
  for (size_t i = 0; i < spectral.size(); ++i) {
    const OpInfoEntry& op = s.ops[spectral[i]];
    ASSERT_EQ(op.formatted_name, live["dims"][i][0].get<std::string>());
    const PlainValue* v = s.OpAttribute(op, "ndimensional");
    ASSERT_NE(v, nullptr) << op.name;
    EXPECT_EQ(v->kind, PlainValue::Kind::kEnum) << op.name;
    EXPECT_EQ(v->s, live["dims"][i][1].get<std::string>()) << op.name;
  }
  int cls = s.FindEnumClass("torch.testing._internal.opinfo.core.SpectralFuncType");
  ASSERT_GE(cls, 0);
  EXPECT_EQ(s.enum_classes[cls].members,
            (std::map<std::string, std::string>{{"ND", "ND"}, {"OneD", "OneD"}, {"TwoD", "TwoD"}}));
}

// snapshot_torch.py's own imports of the modules that define OpInfo lists,
// with modules added to torch.testing._internal's path: one that raises on
// import (and one that exits) is left out and the rest is recorded; what
// one prints on import never reaches the JSON on stdout.
TEST(TorchSnapshot, AModuleThatFailsToImportIsLeftOut) {
  testing::TempDir d;
  d.Write("zz_broken_db.py", "# names OpInfo\nraise ImportError('no optional dependency')\n");
  d.Write("zz_exits_db.py", "# names OpInfo\nimport sys\nsys.exit(3)\n");
  d.Write("zz_extra_db.py",
          "from torch.testing._internal.opinfo.core import OpInfo\n"
          "from torch.testing._internal.common_methods_invocations import op_db\n"
          "print('noise on import')\n"
          "extra_db = op_db[:2]\n");
  auto r = testing::Python(
      {"-c",
       "import json, sys\n"
       "sys.path.insert(0, sys.argv[1])\n"
       "import torch.testing._internal as package\n"
       "package.__path__.append(sys.argv[2])\n"
       "import snapshot_torch as s\n"
       "s.import_info_modules()\n"
       "lists = s.named_lists(s.testing_modules(), s.OpInfo)\n"
       "json.dump({k: [o.name for o in v] for k, v in lists.items()}, sys.stdout)\n",
       testing::SourcePath("analyzers/torch_snapshot"), d.path().string()});
  ASSERT_EQ(r.rc, 0) << r.err;
  nlohmann::json lists = nlohmann::json::parse(r.out);  // no noise in it
  EXPECT_NE(r.err.find("noise on import"), std::string::npos) << r.err;
  ASSERT_TRUE(lists.contains("torch.testing._internal.zz_extra_db.extra_db")) << r.out;
  const nlohmann::json& op_db = lists["torch.testing._internal.common_methods_invocations.op_db"];
  ASSERT_GE(op_db.size(), 2u);
  EXPECT_EQ(lists["torch.testing._internal.zz_extra_db.extra_db"],
            nlohmann::json::array({op_db[0], op_db[1]}));
  EXPECT_TRUE(lists.contains("torch.testing._internal.custom_op_db.custom_op_db"));
  for (const auto& [name, _] : lists.items()) {
    EXPECT_EQ(name.find("zz_broken_db"), std::string::npos) << name;
    EXPECT_EQ(name.find("zz_exits_db"), std::string::npos) << name;
  }
}

// The entries content identities hash (format 5): every DecorateInfo of an
// OpInfo, as the live OpInfo holds them (skips included), and its input
// functions by name.
TEST(TorchSnapshot, EntryLinesAreTheLiveOpInfosDecorateInfos) {
  auto r = testing::Python({"-c", R"(
import json
from torch.testing._internal.common_methods_invocations import op_db
out = {}
for op in op_db:
    if op.name in ("add", "mul", "nn.functional.relu") and not op.variant_test_name:
        out[op.name] = {"decorate": sorted((d.cls_name or "*", d.test_name or "*")
                                           for d in op.decorators),
                        "sample": op.sample_inputs_func.__wrapped__.__qualname__
                                  if hasattr(op.sample_inputs_func, "__wrapped__")
                                  else op.sample_inputs_func.__qualname__}
print(json.dumps(out))
)"});
  ASSERT_EQ(r.rc, 0) << r.err;
  nlohmann::json live = nlohmann::json::parse(r.out);
  // The shared cache (keyed by torch's version.py and the script, as users
  // get it): taking a snapshot anew costs this test most of its time.
  TorchSnapshot s = LoadTorchSnapshot(EnsureTorchSnapshot(TESTMAP_PYTHON, DefaultCacheDir()));
  size_t checked = 0;
  // op_db's OpInfos: other lists hold OpInfos of those names too (njt_op_db).
  for (int i : s.op_lists.at("torch.testing._internal.common_methods_invocations.op_db")) {
    const OpInfoEntry& op = s.ops[i];
    if (!live.contains(op.name) || !op.variant_test_name.empty()) continue;
    std::vector<std::pair<std::string, std::string>> decorate;
    std::string sample;
    for (std::string_view line : s.EntryLines(op.entry)) {
      std::vector<std::string> cols;
      size_t b = 0;
      for (size_t e; (e = line.find('\t', b)) != std::string_view::npos; b = e + 1)
        cols.emplace_back(line.substr(b, e - b));
      cols.emplace_back(line.substr(b));
      if (cols[0] == "decorate") decorate.emplace_back(cols[1], cols[2]);
      if (cols[0] == "func" && cols[1] == "sample_inputs_func") sample = cols[2];
    }
    std::sort(decorate.begin(), decorate.end());
    std::vector<std::pair<std::string, std::string>> want;
    for (const auto& d : live[op.name]["decorate"]) want.emplace_back(d[0], d[1]);
    EXPECT_EQ(decorate, want) << op.name;
    EXPECT_NE(sample.find("." + live[op.name]["sample"].get<std::string>() + "#"),
              std::string::npos)
        << op.name << ": " << sample;
    ++checked;
  }
  EXPECT_EQ(checked, 3u);
}

// A Python that logs each start, then runs the real one (with `env` in
// front: another torch on PYTHONPATH).
void WritePythonWrapper(const std::string& path, const std::string& log, const std::string& env) {
  testing::WriteFile(path, "#!/bin/sh\necho started >> '" + log + "'\n" + env + "exec '" +
                               TESTMAP_PYTHON + "' \"$@\"\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
}

TEST(TorchSnapshot, AnUnchangedTorchIsServedWithoutStartingPythonAndAnotherIsNoticed) {
  testing::TempDir d;
  // The cache starts with the real torch's snapshot, so that nothing here
  // has to take one (seconds).
  std::filesystem::path real = EnsureTorchSnapshot(TESTMAP_PYTHON, DefaultCacheDir());
  std::filesystem::create_directories(d.path() / "cache/torch-snapshots");
  std::filesystem::copy_file(real, d.path() / "cache/torch-snapshots" / real.filename());
  std::string python = (d.path() / "python").string(), log = (d.path() / "log").string();
  std::string cache = (d.path() / "cache").string();
  WritePythonWrapper(python, log, "");
  auto starts = [&] { return testing::Lines(testing::ReadFile(log)).size(); };

  std::string first = EnsureTorchSnapshot(python, cache);
  EXPECT_EQ(std::filesystem::path(first).filename(), real.filename());
  EXPECT_EQ(starts(), 1u);  // located torch
  EXPECT_EQ(EnsureTorchSnapshot(python, cache), first);
  EXPECT_EQ(starts(), 1u);  // nothing changed: Python not started

  // A record left by a testmap whose snapshot script differed names that
  // testmap's snapshot: never served to this one (it would lack what this
  // script records).
  std::filesystem::path snapshots = d.path() / "cache/torch-snapshots";
  std::filesystem::copy_file(first, snapshots / "older-script.json");
  size_t records = 0;
  for (const auto& e : std::filesystem::directory_iterator(snapshots)) {
    if (e.path().filename().string().rfind("located-", 0) != 0) continue;
    auto lines = testing::Lines(testing::ReadFile(e.path().string()));
    ASSERT_GE(lines.size(), 2u);
    lines[1] = "older-script.json";
    std::string text;
    for (const auto& l : lines) text += l + "\n";
    d.Write(std::filesystem::relative(e.path(), d.path()).string(), text);
    ++records;
  }
  ASSERT_EQ(records, 1u);
  EXPECT_EQ(EnsureTorchSnapshot(python, cache), first);
  EXPECT_EQ(starts(), 2u);  // located anew
  EXPECT_EQ(EnsureTorchSnapshot(python, cache), first);
  EXPECT_EQ(starts(), 2u);  // and remembered

  // Another torch, first on the path: the Python's file changed, so torch
  // is located anew, found elsewhere, and snapshotted (which fails, since
  // this torch has none of torch's test machinery).
  d.Write("other/torch/__init__.py", "__version__ = '0.0.other'\n");
  d.Write("other/torch/version.py", "__version__ = '0.0.other'\n");
  WritePythonWrapper(python, log, "PYTHONPATH='" + (d.path() / "other").string() + "' ");
  EXPECT_THROW(EnsureTorchSnapshot(python, cache), std::runtime_error);
  EXPECT_GE(starts(), 3u);  // located, then the snapshot script

  // Back to the real torch (a new stat again: located anew), then the
  // other torch through the environment rather than the wrapper.
  WritePythonWrapper(python, log, "");
  EXPECT_EQ(EnsureTorchSnapshot(python, cache), first);
  size_t before = starts();
  EXPECT_EQ(EnsureTorchSnapshot(python, cache), first);
  EXPECT_EQ(starts(), before);
  setenv("PYTHONPATH", (d.path() / "other").c_str(), 1);
  EXPECT_THROW(EnsureTorchSnapshot(python, cache), std::runtime_error);
  unsetenv("PYTHONPATH");
  EXPECT_GT(starts(), before);
}

}  // namespace
}  // namespace testmap::torch_snapshot
