"""The server reads no file outside the paths it was started with: a whole
session (every tool, refused paths included) runs under strace, and every
file the server process and its threads open is under --index, under
--allow, or part of the system (shared libraries, /proc, /sys)."""

import os
import re
import shutil
import subprocess

from conftest import ROOT, call, required_env, run_session
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
    log = tmp_path / "strace.log"
    testmap = required_env("TESTMAP_BIN")
    params = StdioServerParameters(
        command=strace,
        args=["-f", "-qq", "-e", "trace=open,openat,openat2,creat,execve", "-o", str(log), testmap,
              "mcp", "--index", index_dir, "--allow", str(allowed)])

    async def body(client):
        ops = await call(client, "list_ops", {"limit": 5})
        op = ops["ops"][0]["op"]
        first = await call(client, "query_op", {"op": op, "limit": 2})
        await call(client, "tests_for_ops", {"ops": [op, ops["ops"][1]["op"]], "match": "any"})
        await call(client, "show_test", {"test": first["tests"][0]["nodeid"]})
        await call(client, "plan", {"timing_files": [str(junit)], "splits": 2})
        refused = [await client.call_tool("plan", {"timing_files": [p], "splits": 2})
                   for p in (str(outside), str(allowed / "link.xml"), str(allowed / ".." / "outside.xml"),
                             "/etc/shadow", "../../etc/passwd")]
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
    strays = [p for p in opened
              if not (p.startswith(index + os.sep) or p == index or p.startswith(str(allowed.resolve()) + os.sep)
                      or p.startswith(SYSTEM) or p in (testmap, os.path.realpath(testmap)))]
    assert strays == [], strays
    assert str(outside) not in opened
