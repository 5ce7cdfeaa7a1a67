"""Outcomes and per-phase durations as pytest reports them, and the counts
every command gives for the same run."""

import json
import subprocess
import sys

from conftest import CASES, run_testmap, run_traced, traced_tests


def test_every_outcome_is_named(tmp_path):
    proc = run_traced(tmp_path, ["test_outcomes.py"], cwd=CASES)
    assert proc.returncode == 1
    tests = {n.split("::")[-1]: t for n, t in traced_tests(str(tmp_path)).items()}
    assert {n: t["outcome"] for n, t in tests.items()} == {
        "test_passed": "passed", "test_failed": "failed", "test_skipped": "skipped",
        "test_xfailed": "xfailed", "test_xpassed": "xpassed", "test_error_in_setup": "error",
        "test_error_in_teardown": "error"}
    assert set(tests["test_passed"]["phases"]) == {"setup", "call", "teardown"}
    assert tests["test_error_in_setup"]["phases"]["setup"]["outcome"] == "failed"
    assert "call" not in tests["test_error_in_setup"]["phases"]
    assert tests["test_error_in_teardown"]["phases"]["teardown"]["outcome"] == "failed"
    for t in tests.values():
        assert abs(t["duration"] - sum(p["duration"] for p in t["phases"].values())) < 1e-5
    # Ops of failing tests are still recorded: what ran, ran.
    assert any(o["op"] == "aten::abs" for o in tests["test_failed"]["ops"])
    assert any(o["op"] == "aten::exp" for o in tests["test_error_in_teardown"]["ops"])
    # One count everywhere: what pytest collects, what ingest added and what
    # stats says, skipped tests and tests that dispatched nothing included.
    collected = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "test_outcomes.py"],
                               cwd=CASES, capture_output=True, text=True, timeout=300).stdout
    n = sum(1 for line in collected.splitlines() if "::" in line)
    assert n == len(tests) == 7
    index = tmp_path / "index"
    ingest = json.loads(run_testmap("ingest", "--index", str(index), "--format", "json", str(tmp_path)).stdout)
    stats = json.loads(run_testmap("stats", "--index", str(index), "--format", "json").stdout)
    assert ingest["traced_tests"] == ingest["test_records"] == stats["traced_tests"] == stats["tests"] == n
    assert "7 traced tests (7 test records from 1 run(s))" in run_testmap(
        "ingest", "--index", str(tmp_path / "again"), str(tmp_path)).stdout
