"""The `collection` record (docs/trace-format.md) against pytest's own
collection: what a traced run says it built of each file is what
`pytest --collect-only -q` lists, deselected tests included, and a traced
`--collect-only` run, which runs nothing, is a process a plan learns the
cost of collecting from (mapper/plan/fixed_costs.h)."""

import collections
import json
import os
import subprocess
import sys

import pytest
from conftest import SUITE, run_testmap, run_traced


@pytest.fixture(scope="module")
def collected_per_file():
    """What plain `pytest --collect-only -q` lists, per file: the ground truth."""
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "--collect-only", "-p", "no:cacheprovider"],
                          cwd=SUITE, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    return dict(collections.Counter(nodeid.split("::", 1)[0] for nodeid in ids))


@pytest.fixture(scope="module")
def collect_only_trace(tmp_path_factory):
    out = tmp_path_factory.mktemp("collect")
    run_traced(out, ["--collect-only"], recorder="none")
    return out


@pytest.fixture(scope="module")
def selected_run_trace(tmp_path_factory):
    out = tmp_path_factory.mktemp("selected")
    run_traced(out, ["-k", "add"], recorder="none")
    return out


def records(out):
    with open(os.path.join(out, "trace-main.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f]


def test_collect_only_run_records_what_pytest_collected_and_no_test(collected_per_file, collect_only_trace):
    assert len(collected_per_file) >= 5  # the suite's files, not an empty answer
    recs = records(collect_only_trace)
    assert [r["type"] for r in recs] == ["run", "collection"]
    collection = recs[1]
    assert collection["files"] == collected_per_file
    assert 0 < collection["end"] - collection["start"] < 600


def test_deselected_tests_are_counted_where_pytest_built_them(collected_per_file, selected_run_trace):
    recs = records(selected_run_trace)
    assert recs[1]["type"] == "collection"
    assert recs[1]["files"] == collected_per_file
    ran = [r["nodeid"] for r in recs if r["type"] == "test"]
    assert 0 < len(ran) < sum(collected_per_file.values())
    assert all("add" in nodeid.lower() for nodeid in ran)
    assert all(r["start"] >= recs[1]["end"] for r in recs if r["type"] == "test")


def test_plan_learns_from_a_collect_only_shard_and_its_index_alike(tmp_path, collect_only_trace,
                                                                  selected_run_trace):
    """A collect-only process is one more process the plan learns from, read
    the same from the shard and from an index that ingested it."""
    shards = [str(selected_run_trace / "trace-main.jsonl"), str(collect_only_trace / "trace-main.jsonl")]

    def options(*args):
        proc = run_testmap("plan", *args, "--splits", "2", "--format", "json")
        return json.loads(proc.stdout)

    alone = options(shards[0])
    both = options(*shards)
    assert "learned from 1 process " in alone["options"]["fixed_costs_source"], alone["options"]
    assert "learned from 2 processes" in both["options"]["fixed_costs_source"], both["options"]
    index = tmp_path / "index"
    run_testmap("ingest", "--index", str(index), *shards)
    from_index = options("--index", str(index))
    for key in ("process_overhead", "file_overhead", "test_overhead", "collected_overhead",
                "startup_seconds"):
        assert abs(from_index["options"][key] - both["options"][key]) < 1e-9, key
    assert from_index["options"]["fixed_costs_source"] == both["options"]["fixed_costs_source"]
