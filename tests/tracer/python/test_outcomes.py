"""Outcomes and per-phase durations as pytest reports them."""

from conftest import CASES, run_traced, traced_tests


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
