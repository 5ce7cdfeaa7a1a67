"""The recorder's typed per-operator kernels (tracer/aten_op_kernels.cc)
against the live dispatcher: loading the library changes no operator's
dispatch table but for the recorder's own key; ATen's operators get the
typed kernel there, others keep the boxed fallback; a call made boxed and
the same call made typed record the same.

Each check runs in a child Python, so that this process's dispatcher stays
as torch left it."""

import json
import subprocess
import sys

from conftest import PLUGIN_DIR, required_env

TYPED = "testmap tracer (tracer/aten_op_kernels.cc) [kernel]"

# Every operator's computed dispatch table, one "op line" per entry, leaving
# out the recorder's key (Fake); with argv[1] set, after loading that library.
DUMP_TABLES = """
import sys, torch
if len(sys.argv) > 1:
    torch.ops.load_library(sys.argv[1])
for name in sorted(torch._C._dispatch_get_all_op_names()):
    for line in torch._C._dispatch_dump_table(name).splitlines():
        if not line.startswith("Fake:"):
            print(name, line)
"""

# The recorder's entry for a few operators, and what a test that calls an op
# typed (torch.mul), boxed (torch.ops.aten.mul.Tensor) and a torch.library op
# (no typed kernel) records.
RECORD = """
import json, sys, torch
sys.path.insert(0, sys.argv[2])
from testmap_trace.cpp_recorder import CppRecorder
torch.library.define("testmap_check::twice", "(Tensor x) -> Tensor")
@torch.library.impl("testmap_check::twice", "CPU")
def twice(x):
    return x * 2
recorder = CppRecorder(sys.argv[1])
def fake_entry(op):
    return [l for l in torch._C._dispatch_dump_table(op).splitlines() if l.startswith("Fake:")]
entries = {op: fake_entry(op) for op in ("aten::add.Tensor", "aten::mul.Tensor", "aten::relu_",
                                          "aten::mv", "aten::sum", "aten::cat", "testmap_check::twice")}
x, y = torch.randn(4, dtype=torch.float64), torch.randn(4, dtype=torch.float64)
recorder.start()
torch.mul(x, y)
torch.ops.aten.mul.Tensor(x, y)
torch.ops.testmap_check.twice(x.float())
recorder.stop()
print(json.dumps({"entries": entries, "records": recorder.take()}))
"""


def child(script, *args):
    proc = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_dispatch_tables_change_only_on_the_recorders_key():
    lib = required_env("TESTMAP_TRACER_LIB")
    before = child(DUMP_TABLES).splitlines()
    after = child(DUMP_TABLES, lib).splitlines()
    assert len(before) > 100000  # every operator's table, not an empty dump
    assert before == after


def test_aten_ops_typed_others_boxed_and_both_record_alike():
    result = json.loads(child(RECORD, required_env("TESTMAP_TRACER_LIB"), PLUGIN_DIR))
    entries = result["entries"]
    for op in ("aten::add.Tensor", "aten::mul.Tensor", "aten::relu_", "aten::mv", "aten::sum", "aten::cat"):
        assert entries[op] == [f"Fake: {TYPED}"], (op, entries[op])
    # A torch.library op has no typed kernel: the boxed fallback has it.
    [fallback] = entries["testmap_check::twice"]
    assert "tracer/dispatch_recorder.cc" in fallback and fallback.endswith("[backend fallback]"), fallback
    records = {(r["op"], tuple(r["dtypes"]), r["device"], r["role"]): r["count"] for r in result["records"]}
    # One typed and one boxed call of mul.Tensor: one record, counted twice.
    assert records[("aten::mul.Tensor", ("float64",), "cpu", "test")] == 2
    # The custom op is recorded (boxed); the `x * 2` inside it is not (the
    # recorder's key is excluded below a recorded call, as a mode is popped).
    assert records[("testmap_check::twice", ("float32",), "cpu", "test")] == 1
    assert ("aten::mul.Tensor", ("float32",), "cpu", "test") not in records
