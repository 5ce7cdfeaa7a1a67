"""Node ids that join whatever the layout: for each rootdir layout pytest
knows (no ini file; pytest.ini, pyproject.toml, tox.ini, setup.cfg at a
parent; run from a subfolder; --rootdir; -c), the ids `testmap trace`
records and the ids `testmap scan` gives for the same arguments are exactly
what plain `pytest --collect-only -q` prints for the same invocation in the
same folder. Then trace + scan of a folder without an ini file ingest into
one test per id, and trace ids made from another rootdir than the scan's
are warned about at ingest.

The layouts' test files import torch only inside the tests, so collection
is cheap; the runs go two at a time."""

import concurrent.futures
import json
import os
import subprocess
import sys

import pytest

from conftest import required_env, run_testmap

TEST_FILE = '''\
import pytest


def test_plain():
    import torch

    torch.ones(2).add_(1)


class TestKind:
    @pytest.mark.parametrize("x", [1, "a b"])
    def test_param(self, x):
        pass
'''

INI = {
    "pytest.ini": "[pytest]\naddopts = -p no:cacheprovider\n",
    "pyproject.toml": "[tool.pytest.ini_options]\naddopts = \"-p no:cacheprovider\"\n",
    "tox.ini": "[tox]\n\n[pytest]\naddopts = -p no:cacheprovider\n",
    "setup.cfg": "[metadata]\nname = x\n\n[tool:pytest]\naddopts = -p no:cacheprovider\n",
}

# name -> (files under the layout's root, cwd relative to the root, pytest args)
LAYOUTS = {
    "no ini, run at the root": ({"sub/test_lay.py": TEST_FILE}, ".", []),
    "no ini, path argument": ({"sub/test_lay.py": TEST_FILE}, ".", ["sub/test_lay.py"]),
    "pytest.ini at a parent": ({"pytest.ini": INI["pytest.ini"], "test/test_lay.py": TEST_FILE}, "test",
                               ["test_lay.py"]),
    "pyproject.toml at a parent": ({"pyproject.toml": INI["pyproject.toml"], "test/test_lay.py": TEST_FILE},
                                   "test", ["test_lay.py"]),
    "tox.ini at a parent": ({"tox.ini": INI["tox.ini"], "test/test_lay.py": TEST_FILE}, "test", ["test_lay.py"]),
    "setup.cfg at a parent": ({"setup.cfg": INI["setup.cfg"], "test/test_lay.py": TEST_FILE}, "test",
                              ["test_lay.py"]),
    "pytest.ini, run from a subfolder": ({"pytest.ini": INI["pytest.ini"], "test/deep/test_lay.py": TEST_FILE},
                                         "test/deep", ["."]),
    "--rootdir": ({"test/test_lay.py": TEST_FILE}, "test", ["--rootdir", "{root}", "test_lay.py"]),
    "-c": ({"ci.ini": INI["pytest.ini"], "test/test_lay.py": TEST_FILE}, "test",
           ["-c", "../ci.ini", "test_lay.py"]),
}


def make_layout(base, files):
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def collect_ids(cwd, args):
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return {line for line in proc.stdout.splitlines() if "::" in line}


def scan_ids(cwd, args):
    python = os.environ.get("TESTMAP_PYTHON", sys.executable)
    proc = run_testmap("scan", *args, "--format", "nodeids", "--torch-python", python, cwd=cwd)
    return {line for line in proc.stdout.splitlines() if line}


def trace_ids(cwd, args, out):
    proc = subprocess.run([required_env("TESTMAP_BIN"), "trace", "--out", str(out), "--", "pytest", "-q",
                           "-p", "no:cacheprovider", *args], cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with open(out / "trace-main.jsonl") as f:
        return {r["nodeid"] for r in map(json.loads, f) if r["type"] == "test"}


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    """name -> {"collect": ids, "trace": ids, "scan": ids, "root": path, "cwd": path,
    "out": traces}."""
    jobs = {}
    for i, (name, (files, cwd, args)) in enumerate(LAYOUTS.items()):
        root = tmp_path_factory.mktemp(f"layout{i}")
        make_layout(root, files)
        args = [a.replace("{root}", str(root)) for a in args]
        jobs[name] = (root, root / cwd, args, root.parent / f"{root.name}-traces")
    results = {}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        futures = {name: (pool.submit(collect_ids, cwd, args), pool.submit(trace_ids, cwd, args, out),
                          pool.submit(scan_ids, cwd, args))
                   for name, (root, cwd, args, out) in jobs.items()}
        for name, (collect, trace, scan) in futures.items():
            root, cwd, _, out = jobs[name]
            results[name] = {"collect": collect.result(), "trace": trace.result(), "scan": scan.result(),
                             "root": root, "cwd": cwd, "out": out}
    return results


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_traced_and_scanned_ids_are_the_collected_ids(layouts, name):
    got = layouts[name]
    assert len(got["collect"]) == 3, got["collect"]
    assert got["trace"] == got["collect"]
    assert got["scan"] == got["collect"]


def test_the_layouts_give_the_ids_pytest_documents(layouts):
    # Ground truth for the matrix: rootdir is the ini file's folder (or the
    # common ancestor of the arguments without one, --rootdir, -c's folder).
    expect = {
        "no ini, run at the root": "sub/test_lay.py::test_plain",
        "no ini, path argument": "sub/test_lay.py::test_plain",
        "pytest.ini at a parent": "test/test_lay.py::test_plain",
        "pyproject.toml at a parent": "test/test_lay.py::test_plain",
        "tox.ini at a parent": "test/test_lay.py::test_plain",
        "setup.cfg at a parent": "test/test_lay.py::test_plain",
        "pytest.ini, run from a subfolder": "test/deep/test_lay.py::test_plain",
        "--rootdir": "test/test_lay.py::test_plain",
        "-c": "test/test_lay.py::test_plain",
    }
    got = {name: sorted(r["collect"])[-1] for name, r in layouts.items()}
    assert got == expect


def test_scan_ids_join_the_trace_without_an_ini_file(layouts, tmp_path):
    got = layouts["no ini, run at the root"]
    python = os.environ.get("TESTMAP_PYTHON", sys.executable)
    scan = run_testmap("scan", ".", "--format", "jsonl", "--torch-python", python, cwd=got["cwd"]).stdout
    scanned = {json.loads(line)["nodeid"] for line in scan.splitlines()}
    assert scanned == got["collect"]
    scan_file = tmp_path / "scan.jsonl"
    scan_file.write_text(scan)
    index = tmp_path / "index"
    ingest = run_testmap("ingest", "--index", str(index), str(scan_file), str(got["out"]))
    assert "warning" not in ingest.stderr, ingest.stderr
    stats = json.loads(run_testmap("stats", "--index", str(index), "--format", "json").stdout)
    assert stats["tests"] == len(got["collect"]) == stats["traced_tests"]
    shown = json.loads(run_testmap("show", "--index", str(index), "sub/test_lay.py::test_plain").stdout)
    assert shown["origin"] == "scan" and any(o["op"] == "aten::add_.Tensor" for o in shown["ops"])


def test_ingest_warns_when_trace_and_scan_ids_do_not_join(layouts, tmp_path):
    # Traced with --rootdir at the layout's root (ids `test/test_lay.py::...`),
    # scanned in the test folder as plain pytest there would collect it (ids
    # `test_lay.py::...`): two rootdirs, no id in common.
    got = layouts["--rootdir"]
    python = os.environ.get("TESTMAP_PYTHON", sys.executable)
    scan = run_testmap("scan", "test_lay.py", "--format", "jsonl", "--torch-python", python,
                       cwd=got["cwd"]).stdout
    scanned = {json.loads(line)["nodeid"] for line in scan.splitlines()}
    assert scanned == collect_ids(got["cwd"], ["test_lay.py"]) == {i.replace("test/", "", 1) for i in got["trace"]}
    scan_file = tmp_path / "scan.jsonl"
    scan_file.write_text(scan)
    ingest = run_testmap("ingest", "--index", str(tmp_path / "index"), str(scan_file), str(got["out"]))
    assert ("warning: trace ids of test/test_lay.py do not join the scan's ids of test_lay.py (3 test(s), e.g. "
            in ingest.stderr), ingest.stderr
