"""Crash safety: a test that calls os.abort() mid-suite. Earlier records
survive, the crash is recorded (by the trace reader when no parent finished
the shard, by the `testmap trace` parent on disk), and under xdist the other
workers' and the remaining tests' records are complete."""

import json
import os
import signal
import subprocess
import sys

from conftest import CASES, PLUGIN_DIR, required_env, run_testmap, run_traced

CRASH_ENV = {"TESTMAP_CRASH_TEST": "1"}


def read_lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def shown(index, nodeid):
    return json.loads(run_testmap("show", "--index", str(index), nodeid).stdout)


def test_abort_without_a_parent_is_detected_by_the_reader(tmp_path, monkeypatch):
    monkeypatch.setenv("TESTMAP_CRASH_TEST", "1")
    out = tmp_path / "traces"
    proc = run_traced(out, ["test_crash_midway.py", "-p", "no:cacheprovider"], cwd=CASES, check=False)
    assert proc.returncode == -signal.SIGABRT
    # Nobody finished the shard: it ends with the aborted test's `begin`.
    assert json.loads((out / "trace-main.jsonl").read_text().splitlines()[-1])["type"] == "begin"
    index = tmp_path / "index"
    run_testmap("ingest", "--index", str(index), str(out))
    before = shown(index, "test_crash_midway.py::test_1_before")
    assert [o["outcome"] for o in before["outcomes"]] == ["passed"]
    assert any(o["op"] == "aten::add_.Tensor" for o in before["ops"])
    aborted = shown(index, "test_crash_midway.py::test_2_abort")
    assert [(o["outcome"], o["crash"]["reason"]) for o in aborted["outcomes"]] == [
        ("crashed", "process ended during the test")]
    missing = run_testmap("show", "--index", str(index), "test_crash_midway.py::test_3_after", check=False)
    assert missing.returncode == 3, missing.stderr


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
    out = tmp_path / "traces"
    run_traced(out, ["test_crash_midway.py", "-p", "no:cacheprovider"], cwd=CASES)
    path = out / "trace-main.jsonl"
    text = path.read_text()
    path.write_text(text + '{"type":"test","nodeid":"x::y","outc')  # cut mid-write
    ingest = run_testmap("ingest", "--index", str(tmp_path / "index"), "--format", "json", str(path))
    assert f"{path}:{len(text.splitlines()) + 1}: last line cut short" in ingest.stderr
    assert json.loads(ingest.stdout)["traced_tests"] == 3
    path.write_text(text.replace('{"type":"begin"', 'garbage {"type":"begin"', 1))
    first_begin = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith('{"type":"begin"'))
    bad = run_testmap("ingest", "--index", str(tmp_path / "other"), str(path), check=False)
    assert bad.returncode == 1
    assert f"{path}:{first_begin}: corrupt record, not JSON" in bad.stderr
    assert not (tmp_path / "other").exists()


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


def trace_cli(out, command, flags=(), env_extra=None):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run([required_env("TESTMAP_BIN"), "trace", "--out", str(out), *flags, "--", *command],
                          cwd=CASES, env=env, capture_output=True, text=True, timeout=600)


def test_resume_after_crash_resumes_after_os_exit(tmp_path):
    proc = trace_cli(tmp_path, ["pytest", "test_crash_midway.py"], ("--resume-after-crash",),
                     {"TESTMAP_CRASH_TEST": "exit"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "pytest exited with status 1; resuming after 2 recorded tests" in proc.stderr
    records = [r for r in read_lines(tmp_path / "trace-main.jsonl") if r["type"] == "test"]
    assert sorted((r["nodeid"].split("::")[-1], r["outcome"]) for r in records) == [
        ("test_1_before", "passed"), ("test_2_abort", "crashed"), ("test_3_after", "passed")]
    crashed = next(r for r in records if r["outcome"] == "crashed")
    assert crashed["crash"]["reason"] == "pytest exited with status 1"


def test_xdist_segfault_names_the_dead_worker_and_its_signal(tmp_path):
    proc = trace_cli(tmp_path, ["pytest", "test_crash_midway.py", "-p", "no:cacheprovider", "-n", "2"],
                     env_extra={"TESTMAP_CRASH_TEST": "segv"})
    assert proc.returncode != 0
    crashed = [r for shard in tmp_path.glob("trace-gw*.jsonl") for r in read_lines(shard)
               if r["type"] == "test" and r["outcome"] == "crashed"]
    assert len(crashed) == 1, proc.stdout + proc.stderr
    reason = crashed[0]["crash"]["reason"]
    worker = crashed[0]["worker"]
    assert reason == f"its xdist worker {worker} was killed by signal 11 (Segmentation fault) during the test"
    assert not list(tmp_path.glob("signal-*.txt"))  # read and removed by testmap trace


def test_out_must_be_a_directory(tmp_path):
    plain = tmp_path / "traces.jsonl"
    plain.write_text("not a directory\n")
    proc = trace_cli(plain, ["pytest", "test_crash_midway.py"])
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr.strip() == f"testmap trace: error: {plain}: --out must be a directory for the trace shards"
    assert plain.read_text() == "not a directory\n"


def test_python_m_pytest_replaces_earlier_shards_with_a_note_unless_kept(tmp_path):
    first = trace_cli(tmp_path, ["pytest", "test_crash_midway.py", "-p", "no:cacheprovider"])
    assert first.returncode == 0, first.stderr
    assert "replaced" not in first.stderr
    # `PYTHON -m pytest`: that interpreter runs the tests.
    second = trace_cli(tmp_path, [sys.executable, "-m", "pytest", "test_crash_midway.py", "-p", "no:cacheprovider"])
    assert second.returncode == 0, second.stdout + second.stderr
    assert f"replaced 1 shard(s) of an earlier run in {tmp_path} (--keep appends instead)" in second.stderr
    runs = [r for r in read_lines(tmp_path / "trace-main.jsonl") if r["type"] == "run"]
    assert len(runs) == 1 and runs[0]["metadata"]["python"]["executable"] == sys.executable
    kept = trace_cli(tmp_path, ["pytest", "test_crash_midway.py", "-p", "no:cacheprovider"], ("--keep",))
    assert kept.returncode == 0 and "replaced" not in kept.stderr
    assert len([r for r in read_lines(tmp_path / "trace-main.jsonl") if r["type"] == "run"]) == 2
