"""Fixtures for driving `testmap mcp` with the official MCP Python SDK.

The index is built from the example suite's real scan and real
`testmap trace --compile-logs` run (made once per build tree by
tests/support and shared with tests/indexer; `mcp_suite_evidence` prints
where). Ground truth for every tool is the CLI's JSON for the same question
(`testmap query --format json`, `show`, `ops`, `plan`), a separate process
over the same libraries.

Environment (set by tests/mcp/CMakeLists.txt through CTest):
  TESTMAP_BIN              the testmap CLI
  TESTMAP_SUITE_EVIDENCE   prints {"suite", "scan", "trace"}
"""

import asyncio
import json
import os
import subprocess

import pytest
from mcp.client.client import Client
from mcp.client.stdio import StdioServerParameters

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))


def required_env(name):
    value = os.environ.get(name)
    if not value or not os.path.exists(value):
        pytest.fail(f"{name} must point at a built file (run through ctest); got {value!r}")
    return value


def run_testmap(*args, check=True, cwd=None):
    proc = subprocess.run([required_env("TESTMAP_BIN"), *args], capture_output=True, text=True,
                          timeout=300, cwd=cwd)
    if check and proc.returncode != 0:
        raise AssertionError(f"testmap {' '.join(args)} exited {proc.returncode}:\n{proc.stderr}")
    return proc


def cli_json(*args):
    return json.loads(run_testmap(*args).stdout)


@pytest.fixture(scope="session")
def evidence():
    proc = subprocess.run([required_env("TESTMAP_SUITE_EVIDENCE")], capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr
    ev = json.loads(proc.stdout)
    for key in ("scan", "trace"):
        assert os.path.getsize(ev[key]) > 0, f"{key} evidence is empty: {ev[key]}"
    return ev


@pytest.fixture(scope="session")
def index_dir(evidence, tmp_path_factory):
    """An index of the suite's scan and trace, shared read-only by the tests."""
    path = str(tmp_path_factory.mktemp("mcp") / "index")
    run_testmap("ingest", "--index", path, evidence["scan"], evidence["trace"])
    return path


def server(index, *extra):
    return StdioServerParameters(command=required_env("TESTMAP_BIN"),
                                 args=["mcp", "--index", index, *extra])


def run_session(params, body, mode="auto"):
    """Runs `await body(client)` in a fresh SDK client session against a
    fresh server process; returns what it returns."""

    async def main():
        async with Client(params, mode=mode, read_timeout_seconds=60) as client:
            return await body(client)

    return asyncio.run(main())


async def call(client, tool, arguments):
    """One tools/call; the structured answer (asserting it is no error and
    that its text content says the same)."""
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, result.content[0].text
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def all_pages(client, tool, arguments, key, limit=1000):
    """Every page of a paged answer: (first page without the list, the whole list)."""
    first = await call(client, tool, {**arguments, "limit": limit})
    items = list(first[key])
    page = first["page"]
    while page["next_cursor"]:
        more = await call(client, tool, {**arguments, "limit": limit, "cursor": page["next_cursor"]})
        assert more["page"]["offset"] == len(items)
        items += more[key]
        page = more["page"]
    assert len(items) == first["page"]["total"]
    return first, items
