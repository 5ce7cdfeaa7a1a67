"""One server session over an index that changes under it: a later
`testmap ingest` becomes visible (the index is reopened), answers from the
old state cannot be paged into the new one, an index that appears only
after the server started is picked up; and files are read only under
--allow."""

import asyncio
import json
import os
import shutil

from mcp.shared.exceptions import MCPError

from conftest import ROOT, call, cli_json, run_session, server, run_testmap


def eager_only_op(evidence, index_dir):
    """An operator of the trace that no scanned test names statically."""
    ops = cli_json("ops", "--index", index_dir, "--format", "json")["ops"]
    for o in ops:
        if o["evidence"] == ["eager"] and "." in o["op"].split("::")[1]:
            return o["op"]
    raise AssertionError("no eager-only overload in the suite's trace")


def without_provenance(answer):
    return {k: v for k, v in answer.items() if k not in ("provenance", "page")}


def test_a_later_ingest_becomes_visible(evidence, index_dir, tmp_path):
    op = eager_only_op(evidence, index_dir)
    live = str(tmp_path / "live")
    run_testmap("ingest", "--index", live, evidence["scan"])  # static evidence only

    async def body(client):
        # An operator torch registers that no test of the index runs yet:
        # an empty answer, as the CLI's.
        before = await call(client, "query_op", {"op": op})
        before_cli = cli_json("query", "--index", live, "--op", op, "--format", "json")
        static = await call(client, "query_op", {"op": "add", "limit": 1})
        # An ingest by another process while this session is open.
        proc = await asyncio.create_subprocess_exec(os.environ["TESTMAP_BIN"], "ingest", "--index", live,
                                                    evidence["trace"])
        assert await proc.wait() == 0
        after = await call(client, "query_op", {"op": op, "limit": 1000})
        try:
            await client.call_tool("query_op", {"op": "add", "limit": 1,
                                                "cursor": static["page"]["next_cursor"]})
            stale = None
        except MCPError as e:
            stale = e.error
        return before, before_cli, static, after, stale

    before, before_cli, static, after, stale = run_session(server(live), body)
    assert before["count"] == 0 and before["untested_ops"] == [op]
    assert without_provenance(before) == before_cli
    assert static["provenance"]["generation"] == 1 and static["provenance"]["static"]
    expected = cli_json("query", "--index", live, "--op", op, "--format", "json")
    assert after["tests"] == expected["tests"] and after["count"] > 0
    assert after["provenance"]["generation"] == 2 and after["provenance"]["runs"]
    assert stale.code == -32602 and "index changed" in stale.message


def test_an_index_that_appears_later(evidence, tmp_path):
    live = str(tmp_path / "later")

    async def body(client):
        missing = await client.call_tool("list_ops", {})
        assert run_testmap("ingest", "--index", live, evidence["scan"], evidence["trace"]).returncode == 0
        return missing, await call(client, "list_ops", {"limit": 1000})

    missing, ops = run_session(server(live), body)
    assert missing.is_error and "index" in missing.content[0].text
    assert ops["ops"] == cli_json("ops", "--index", live, "--format", "json")["ops"]


def test_plan_reads_timing_files_only_under_allow(index_dir, tmp_path):
    data = os.path.join(ROOT, "tests", "timings", "data")
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    junit = allowed / "junit.xml"
    shutil.copy(os.path.join(data, "pytest_xunit2.xml"), junit)
    outside = tmp_path / "outside.xml"
    shutil.copy(os.path.join(data, "pytest_xunit1.xml"), outside)
    os.symlink(outside, allowed / "link.xml")

    async def body(client):
        ok = await call(client, "plan", {"timing_files": [str(junit)], "index": False, "splits": 2,
                                         "limit": 1000})
        both = await call(client, "plan", {"timing_files": [str(junit)], "splits": 3, "limit": 1000})
        refused = [await client.call_tool("plan", {"timing_files": [p], "index": False, "splits": 2})
                   for p in (str(outside), str(allowed / "link.xml"), str(allowed / ".." / "outside.xml"),
                             "/etc/passwd", str(allowed / "missing.xml"))]
        return ok, both, refused

    ok, both, refused = run_session(server(index_dir, "--allow", str(allowed)), body)
    expected = cli_json("plan", str(junit), "--splits", "2", "--format", "json")
    assert [i["labels"] for i in ok["split_items"]] == [i["labels"] for s in expected["plan"] for i in s["items"]]
    assert ok["makespan_seconds"] == expected["makespan_seconds"]
    assert ok["provenance"]["files"][0]["path"] == str(junit.resolve())
    assert ok["provenance"]["runs"] == []  # index: false
    expected = cli_json("plan", str(junit), "--index", index_dir, "--splits", "3", "--format", "json")
    assert both["tests"] == expected["tests"] and both["makespan_seconds"] == expected["makespan_seconds"]
    for r, why in zip(refused, ("outside the allowed", "leads outside", "outside the allowed",
                                "outside the allowed", "No such file")):
        assert r.is_error and why in r.content[0].text, r.content[0].text
    # Without --allow, no file at all.
    r = run_session(server(index_dir), lambda c: c.call_tool("plan", {"timing_files": [str(junit)], "splits": 2}))
    assert r.is_error and "--allow" in r.content[0].text


def test_concurrent_sdk_calls(index_dir):
    ops = [o["op"] for o in cli_json("ops", "--index", index_dir, "--format", "json")["ops"]][:12]

    async def body(client):
        await client.list_tools()
        calls = [client.call_tool("query_op", {"op": op, "limit": 1000}) for op in ops]
        calls += [client.call_tool("list_ops", {"limit": 1000}), client.call_tool("plan", {"splits": 2})]
        return await asyncio.gather(*calls)

    results = run_session(server(index_dir), body)
    for op, r in zip(ops, results):
        assert not r.is_error
        assert r.structured_content["tests"] == cli_json("query", "--index", index_dir, "--op", op,
                                                         "--format", "json")["tests"]
    assert all(not r.is_error for r in results)
