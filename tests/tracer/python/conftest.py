"""Shared fixtures: real traced pytest runs of examples/suite.

Each run is a real `python -m pytest` child process with the testmap_trace
plugin; the session-scoped fixtures run each configuration once, so the
whole file set costs a few suite runs (tens of seconds on 2 cores).

Environment (set by tests/tracer/CMakeLists.txt through CTest):
  TESTMAP_TRACER_LIB  libtestmap_tracer.so
  TESTMAP_LOGS_LIB    libtestmap_torch_logs.so
  TESTMAP_BIN         the testmap CLI
"""

import json
import os
import subprocess
import sys

import pytest

# cases/ holds test files that the tests here run traced; not tests of their own.
collect_ignore = ["cases"]

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
SUITE = os.path.join(ROOT, "examples", "suite")
CASES = os.path.join(os.path.dirname(__file__), "cases")
PLUGIN_DIR = os.path.join(ROOT, "tracer", "python")
sys.path.insert(0, PLUGIN_DIR)


def required_env(name):
    value = os.environ.get(name)
    if not value or not os.path.exists(value):
        pytest.fail(f"{name} must point at a built file (run through ctest); got {value!r}")
    return value


def run_traced(out, args, recorder="cpp", extra=(), cwd=SUITE, check=True):
    """Runs pytest with the plugin; returns the CompletedProcess."""
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "testmap_trace.plugin", "--testmap-out", str(out),
           "--testmap-recorder", recorder, *extra]
    if recorder == "cpp" and "--testmap-tracer-lib" not in extra:
        cmd += ["--testmap-tracer-lib", required_env("TESTMAP_TRACER_LIB")]
    cmd += list(args)
    env = dict(os.environ, PYTHONPATH=PLUGIN_DIR + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    if check and proc.returncode not in (0, 1):
        raise AssertionError(f"pytest failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return proc


def traced_tests(directory):
    """nodeid -> `test` record over the shards of a trace directory whose
    processes all finished (no crash to reconstruct): plain JSON lines.
    Shards with crashes are read through testmap itself (ingest + show),
    the one reader of the format's rules."""
    out = {}
    for name in sorted(os.listdir(directory)):
        if name.startswith("trace-") and name.endswith(".jsonl"):
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                for line in f:
                    rec = json.loads(line)
                    if rec["type"] == "test":
                        out[rec["nodeid"]] = rec
    return out


def run_testmap(*args, cwd=None, check=True):
    """Runs the testmap CLI; returns the CompletedProcess."""
    proc = subprocess.run([required_env("TESTMAP_BIN"), *args], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    if check and proc.returncode != 0:
        raise AssertionError(f"testmap {' '.join(args)} failed ({proc.returncode}):\n{proc.stderr}")
    return proc


def eager_set(test, roles=None):
    """(op, dtype, device) triples of a test record, eager evidence, in any
    role (or in `roles`)."""
    return {
        (o["op"], d, o["device"])
        for o in test["ops"]
        if o["evidence"] == "eager" and (roles is None or o["role"] in roles)
        for d in (o["dtypes"] or [None])
    }


def role_set(test):
    """(op, dtype, device, role) of a test record, eager evidence: what the
    recorders must agree on, role by role."""
    return {
        (o["op"], d, o["device"], o["role"])
        for o in test["ops"]
        if o["evidence"] == "eager"
        for d in (o["dtypes"] or [None])
    }


@pytest.fixture(scope="session")
def suite_traces(tmp_path_factory):
    """The example suite traced three ways: reference TorchDispatchMode, C++
    under a do-nothing TorchDispatchMode (same program as the reference),
    and plain C++ (the production configuration)."""
    runs = {}
    for name, recorder, extra in (
        ("reference", "reference", ()),
        ("cpp_passthrough", "cpp", ("--testmap-passthrough-mode",)),
        ("cpp", "cpp", ()),
    ):
        out = tmp_path_factory.mktemp(name)
        run_traced(out, ["."], recorder=recorder, extra=extra)
        runs[name] = traced_tests(str(out))
    return runs
