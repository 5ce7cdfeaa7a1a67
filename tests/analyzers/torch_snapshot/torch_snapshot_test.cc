// The torch snapshot against the live torch it was taken from: the
// operator registry (names, schemas, kernels per dispatch key) must equal
// what the dispatcher itself answers, asked independently here.
#include "analyzers/torch_snapshot/torch_snapshot.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace testmap::torch_snapshot
