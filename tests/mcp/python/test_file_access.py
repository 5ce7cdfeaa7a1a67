"""The server reads no file outside the paths it was started with: a whole
session (every tool, refused paths included) runs under strace, and every
file the server process and its threads open is under --index, under
--allow, the torch snapshot of --snapshot, or part of the system (shared
libraries, /proc, /sys)."""

import os
import re
import shutil
import subprocess
import sys

from conftest import ROOT, call, required_env, run_session, server
from mcp.client.stdio import StdioServerParameters

SYSTEM = ("/lib/", "/lib64/", "/usr/", "/proc/", "/sys/", "/etc/ld.so.cache")
OPEN = re.compile(r'^\d+\s+(?:open|openat|openat2|execve|creat)\((?:AT_FDCWD, )?"([^"]*)"')


def test_opens_only_index_allow_and_system_files(index_dir, tmp_path):
    strace = shutil.which("strace")
    assert strace, "strace is installed by scripts/setup.sh"
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    junit = allowed / "junit.xml"
    shutil.copy(os.path.join(ROOT, "tests", "timings", "data", "pytest_xunit2.xml"), junit)
    outside = tmp_path / "outside.xml"
    shutil.copy(os.path.join(ROOT, "tests", "timings", "data", "pytest_xunit1.xml"), outside)
    os.symlink(outside, allowed / "link.xml")
    records = allowed / "toy.jsonl"
    records.write_text('{"op":"aten::add.Tensor","dispatch_key":"PrivateUse1","kind":"kernel",'
                       '"mechanism":"m.impl","file":"a.cpp","line":1,"evidence":"static"}\n')
    config = allowed / "suite.yaml"
    shutil.copy(os.path.join(ROOT, "examples", "backend-config", "example_suite.yaml"), config)
    (tmp_path / "outside.yaml").write_text(config.read_text())
    # diff's sides: the example pair's trees (scanned here, with the
    # --snapshot torch) and a tree whose test file links outside.
    for side in ("old", "new"):
        shutil.copytree(os.path.join(ROOT, "examples", "diff", side), allowed / side)
    (allowed / "linked").mkdir()
    shutil.copy(os.path.join(ROOT, "examples", "diff", "old", "test_upgrade.py"), tmp_path / "test_out.py")
    os.symlink(tmp_path / "test_out.py", allowed / "linked" / "test_out.py")
    log = tmp_path / "strace.log"
    testmap = required_env("TESTMAP_BIN")

    # The snapshot of this torch (the file admission answers name): the
    # traced server is started with it, as a server that must read nothing
    # else would be.
    async def snapshot_of(client):
        answer = await call(client, "admit", {"ops": ["add"], "limit": 1})
        return [f["path"] for f in answer["provenance"]["files"] if "torch" in f][0]

    snapshot = run_session(server(index_dir, "--torch-python", sys.executable), snapshot_of)
    params = StdioServerParameters(
        command=strace,
        args=["-f", "-qq", "-e", "trace=open,openat,openat2,creat,execve", "-o", str(log), testmap,
              "mcp", "--index", index_dir, "--allow", str(allowed), "--snapshot", snapshot])

    async def body(client):
        ops = await call(client, "list_ops", {"limit": 5})
        op = ops["ops"][0]["op"]
        first = await call(client, "query_op", {"op": op, "limit": 2})
        await call(client, "tests_for_ops", {"ops": [op, ops["ops"][1]["op"]], "match": "any"})
        await call(client, "show_test", {"test": first["tests"][0]["nodeid"]})
        await call(client, "plan", {"timing_files": [str(junit)], "splits": 2})
        await call(client, "admit", {"supported": str(records), "limit": 3})
        await call(client, "rank_next_ops", {"supported": str(config), "root_token": "${TORCH_ROOT}/test"})
        await call(client, "config_explain", {"config": str(config), "limit": 3})
        refused = [await client.call_tool("plan", {"timing_files": [p], "splits": 2})
                   for p in (str(outside), str(allowed / "link.xml"), str(allowed / ".." / "outside.xml"),
                             "/etc/shadow", "../../etc/passwd")]
        refused += [await client.call_tool("admit", {"supported": str(outside)}),
                    await client.call_tool("config_explain", {"config": str(tmp_path / "outside.yaml")}),
                    await client.call_tool("config_explain", {"config": "/etc/passwd"})]
        await call(client, "diff", {"old": str(allowed / "old"), "new": str(allowed / "new"),
                                    "config": str(config), "limit": 2})
        refused += [await client.call_tool("diff", {"old": str(allowed / "old"), "new": str(allowed / "linked")}),
                    await client.call_tool("diff", {"old": str(allowed / "old"), "new": str(tmp_path / "test_out.py")}),
                    await client.call_tool("diff", {"old": str(allowed / "old"), "new": str(allowed / "new"),
                                                    "config": str(tmp_path / "outside.yaml")})]
        listed = await client.list_resources()
        await client.read_resource(listed.resources[0].uri)
        return refused

    refused = run_session(params, body)
    assert all(r.is_error for r in refused)
    opened = set()
    for line in log.read_text().splitlines():
        m = OPEN.match(line)
        if m:
            opened.add(os.path.normpath(os.path.join(ROOT, m.group(1))))
    index = os.path.realpath(index_dir)
    assert any(p.startswith(index + os.sep) for p in opened), "the trace saw the index opened"
    assert str(junit.resolve()) in opened, "and the allowed timing file"
    assert {str(records.resolve()), str(config.resolve()), os.path.realpath(snapshot)} <= opened
    strays = [p for p in opened
              if not (p.startswith(index + os.sep) or p == index or p.startswith(str(allowed.resolve()) + os.sep)
                      or p.startswith(SYSTEM)
                      or p in (testmap, os.path.realpath(testmap), os.path.realpath(snapshot)))]
    assert strays == [], strays
    assert str(outside) not in opened and str(tmp_path / "outside.yaml") not in opened
    assert str((allowed / "new" / "test_upgrade.py").resolve()) in opened, "diff scanned a tree"
    assert str((tmp_path / "test_out.py").resolve()) not in opened
