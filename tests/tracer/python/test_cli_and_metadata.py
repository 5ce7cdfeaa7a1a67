"""`testmap trace` end to end: summary, run metadata, compile logs, and the
refusal of a tracer built against another torch."""

import json
import os
import shutil
import subprocess
import sys

import torch

from conftest import CASES, SUITE, required_env, run_traced
from testmap_trace import FORMAT_VERSION


def cli(out, args, env_extra=None, flags=(), cwd=SUITE):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([required_env("TESTMAP_BIN"), "trace", "--out", str(out), *flags, "--", "pytest", *args],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_cli_summary_and_run_metadata(tmp_path):
    proc = cli(tmp_path, ["-q", "test_matmul.py", "-p", "no:cacheprovider"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"1 shard(s) in {tmp_path}" in proc.stdout
    assert "tests (" in proc.stdout and "passed" in proc.stdout and "recorder cpp" in proc.stdout
    run = json.loads((tmp_path / "trace-main.jsonl").read_text().splitlines()[0])
    assert run["type"] == "run" and run["format"] == "testmap-trace" and run["version"] == FORMAT_VERSION
    meta = run["metadata"]
    assert meta["torch"]["version"] == torch.__version__
    assert meta["torch"]["git_version"] == torch.version.git_version
    assert meta["python"]["version"] == sys.version.split()[0]
    assert meta["os"]["platform"] and meta["cpu"]["model"] and meta["start_time"]
    assert meta["command"].endswith("trace --out " + str(tmp_path) + " -- pytest -q test_matmul.py -p no:cacheprovider")
    assert meta["tracer"]["torch_version"] == torch.__version__
    assert meta["testmap_version"]


def test_cli_json_summary_with_reference_recorder(tmp_path):
    proc = cli(tmp_path, ["-q", "test_dispatch_cases.py", "-p", "no:cacheprovider"], flags=("--reference", "--format", "json"),
               cwd=CASES)
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout[proc.stdout.index("{\n"):])
    assert summary["recorder"] == "reference" and summary["tests"] == 7


def test_compile_logs_give_compile_evidence(tmp_path):
    proc = cli(tmp_path, ["-q", "test_compile.py", "-p", "no:cacheprovider"], flags=("--compile-logs",))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    tests = {json.loads(l)["nodeid"].split("::")[-1]: json.loads(l)
             for l in (tmp_path / "trace-main.jsonl").read_text().splitlines() if '"type":"test"' in l}
    ran = {n: t for n, t in tests.items() if t["outcome"] == "passed"}
    assert len(ran) == 3
    compile_ops = lambda t: {(o["op"], tuple(o["dtypes"]), o["device"]) for o in t["ops"] if o["evidence"] == "compile"}  # noqa
    assert ("aten::mm", ("float32",), "cpu") in compile_ops(ran["test_matmul_relu_static_shapes"])
    assert ("aten::relu", ("float32",), "cpu") in compile_ops(ran["test_matmul_relu_static_shapes"])
    assert ("aten::sigmoid", ("float32",), "cpu") in compile_ops(ran["test_fused_pointwise"])
    graphs = {g for t in ran.values() for o in t["ops"] if o["evidence"] == "compile" for g in o["graphs"]}
    assert {"aot_graphs.forward", "post_grad_graphs"} <= graphs
    assert "### testmap test test_compile.py::TestInductorCPU::test_fused_pointwise" in (
        tmp_path / "torch-logs-main.log").read_text()
    # Eager evidence of the same tests holds only the compiled artifact's calls.
    assert all(o["device"] != "meta" for t in ran.values() for o in t["ops"])


def test_tracer_built_for_another_torch_is_refused_by_name(tmp_path):
    lib = required_env("TESTMAP_TRACER_LIB")
    fake = tmp_path / "libtestmap_tracer.so"
    data = open(lib, "rb").read()
    marker = b"TESTMAP_TRACER_BUILD=" + torch.__version__.encode()
    assert marker in data
    other = "2.12.0" + torch.__version__[6:]  # same length keeps the ELF intact
    fake.write_bytes(data.replace(marker, b"TESTMAP_TRACER_BUILD=" + other.encode()))
    proc = run_traced(tmp_path / "out", ["test_dispatch_cases.py"], cwd=CASES, check=False,
                      extra=("--testmap-tracer-lib", str(fake)))
    text = proc.stdout + proc.stderr
    assert proc.returncode == 4, text  # pytest usage error, not a signal
    assert f"built against torch {other}" in text and f"runs torch {torch.__version__}" in text
    proc = cli(tmp_path / "out2", ["test_dispatch_cases.py"], {"TESTMAP_TRACER_LIB": str(fake)}, cwd=CASES)
    assert proc.returncode == 4 and f"built against torch {other}" in proc.stdout + proc.stderr
