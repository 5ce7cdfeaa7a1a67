"""Crash safety: a test that calls os.abort() mid-suite. Earlier records
survive, the crash is recorded (by the reader without a parent, by the
`testmap trace` parent on disk), and under xdist the other workers' and the
remaining tests' records are complete."""

import json
import os
import signal
import subprocess

from conftest import CASES, PLUGIN_DIR, required_env, run_traced

CRASH_ENV = {"TESTMAP_CRASH_TEST": "1"}


def read_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def test_abort_without_a_parent_is_detected_by_the_reader(tmp_path, monkeypatch):
    from testmap_trace.trace_file import read_shard

    monkeypatch.setenv("TESTMAP_CRASH_TEST", "1")
    proc = run_traced(tmp_path, ["test_crash_midway.py", "-p", "no:cacheprovider"], cwd=CASES, check=False)
    assert proc.returncode == -signal.SIGABRT
    shard = read_shard(str(tmp_path / "trace-main.jsonl"))
    by_name = {t["nodeid"].split("::")[-1]: t for t in shard.tests}
    assert list(by_name) == ["test_1_before", "test_2_abort"]
    assert by_name["test_1_before"]["outcome"] == "passed"
    assert any(o["op"] == "aten::add_.Tensor" for o in by_name["test_1_before"]["ops"])
    assert by_name["test_2_abort"]["outcome"] == "crashed"


def run_cli(out, args, env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([required_env("TESTMAP_BIN"), "trace", "--out", str(out), "--", "pytest", *args],
                          cwd=CASES, env=env, capture_output=True, text=True, timeout=600)


def test_cli_records_the_crash_on_disk(tmp_path):
    proc = run_cli(tmp_path, ["test_crash_midway.py", "-p", "no:cacheprovider"], CRASH_ENV)
    assert proc.returncode == 128 + signal.SIGABRT, proc.stderr
    assert "crashed: test_crash_midway.py::test_2_abort" in proc.stdout
    assert "killed by signal 6" in (tmp_path / "trace-main.jsonl").read_text()
    records = [r for r in read_lines(tmp_path / "trace-main.jsonl") if r["type"] == "test"]
    assert [(r["nodeid"].split("::")[-1], r["outcome"]) for r in records] == [
        ("test_1_before", "passed"), ("test_2_abort", "crashed")]


def test_xdist_worker_crash_keeps_every_other_record(tmp_path):
    proc = run_cli(tmp_path, ["test_crash_midway.py", "-p", "no:cacheprovider", "-n", "2"], CRASH_ENV)
    assert proc.returncode != 0
    shards = sorted(p.name for p in tmp_path.glob("trace-*.jsonl"))
    assert len(shards) >= 2 and all(s.startswith("trace-gw") for s in shards), shards
    outcomes = {}
    for shard in shards:
        for r in read_lines(tmp_path / shard):
            if r["type"] == "test":
                outcomes[r["nodeid"].split("::")[-1]] = r["outcome"]
    assert outcomes == {"test_1_before": "passed", "test_2_abort": "crashed", "test_3_after": "passed"}


def test_truncated_shard_line_is_tolerated_but_garbage_is_named(tmp_path):
    from testmap_trace.trace_file import TraceFormatError, read_shard

    run_traced(tmp_path, ["test_crash_midway.py", "-p", "no:cacheprovider"], cwd=CASES)
    path = tmp_path / "trace-main.jsonl"
    text = path.read_text()
    path.write_text(text + '{"type":"test","nodeid":"x::y","outc')  # cut mid-write
    assert len(read_shard(str(path)).tests) == 3
    path.write_text(text.replace('{"type":"begin"', 'garbage {"type":"begin"', 1))
    try:
        read_shard(str(path))
    except TraceFormatError as e:
        assert f"{path}:2: not a JSON record" in str(e)
    else:
        raise AssertionError("garbage line accepted")


def test_resume_after_crash_runs_the_remaining_tests(tmp_path):
    proc = subprocess.run(
        [required_env("TESTMAP_BIN"), "trace", "--resume-after-crash", "--out", str(tmp_path), "--", "pytest",
         "test_crash_midway.py"], cwd=CASES, env=dict(os.environ, **CRASH_ENV), capture_output=True, text=True,
        timeout=600)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "resuming after 2 recorded tests" in proc.stderr
    records = [r for r in read_lines(tmp_path / "trace-main.jsonl") if r["type"] == "test"]
    assert sorted((r["nodeid"].split("::")[-1], r["outcome"]) for r in records) == [
        ("test_1_before", "passed"), ("test_2_abort", "crashed"), ("test_3_after", "passed")]
    assert not (tmp_path / "resume-skip.txt").exists()
