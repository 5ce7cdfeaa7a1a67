"""Every tool of `testmap mcp`, called through the official MCP SDK client
over stdio, answers what the CLI's JSON says for the same question, in
both protocol eras (2026-07-28 via server/discover, and the initialize
handshake), with output that validates against the advertised
outputSchema (the SDK checks structuredContent itself) and provenance
naming the real torch the suite was traced with."""

import json

import jsonschema
import pytest
import torch
from mcp.shared.exceptions import MCPError

from conftest import all_pages, call, cli_json, run_session, server, run_testmap

TOOLS = {"query_op", "tests_for_ops", "show_test", "list_ops", "plan", "admit", "rank_next_ops",
         "config_explain", "diff"}


@pytest.mark.parametrize("mode, version", [("auto", "2026-07-28"), ("legacy", "2025-11-25")])
def test_handshake_and_tools_list(index_dir, mode, version):
    async def body(client):
        listed = await client.list_tools()
        return client.protocol_version, client.server_capabilities, listed.tools

    negotiated, caps, tools = run_session(server(index_dir), body, mode=mode)
    assert negotiated == version
    assert caps.tools is not None and caps.resources is not None
    assert {t.name for t in tools} == TOOLS
    for t in tools:
        assert t.description and t.input_schema["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(t.input_schema)
        jsonschema.Draft202012Validator.check_schema(t.output_schema)
        assert "provenance" in t.output_schema["properties"]
        assert t.annotations.read_only_hint is True


def test_query_op_equals_cli_for_every_operator(index_dir):
    ops = [o["op"] for o in cli_json("ops", "--index", index_dir, "--format", "json")["ops"]]
    assert len(ops) > 20, ops
    # Every operator the suite ran (CLI runs are the cost: ~10 ms each).
    questions = [({"op": op}, ["--op", op]) for op in ops]
    # And each filter, on the operators most tests run.
    busy = ops[:6]
    for op in busy:
        questions += [
            ({"op": op, "dtypes": ["float32"]}, ["--op", op, "--dtype", "float32"]),
            ({"op": op, "dtypes": ["bf16", "float64"]}, ["--op", op, "--dtype", "bf16", "--dtype", "float64"]),
            ({"op": op, "path": "compile"}, ["--op", op, "--path", "compile"]),
            ({"op": op, "path": "static"}, ["--op", op, "--path", "static"]),
            ({"op": op, "device": "cpu"}, ["--op", op, "--device", "cpu"]),
            ({"op": op, "group": "generic"}, ["--op", op, "--group", "generic"]),
        ]
    questions.append(({"op": "torch.ops.aten.add.Tensor"}, ["--op", "torch.ops.aten.add.Tensor"]))

    async def body(client):
        answers = []
        for args, _ in questions:
            key = "generic_tests" if args.get("group") == "generic" else "tests"
            first, items = await all_pages(client, "query_op", args, key, limit=7)
            answers.append((first, items, key))
        return answers

    answers = run_session(server(index_dir), body)
    for (args, flags), (first, items, key) in zip(questions, answers):
        expected = cli_json("query", "--index", index_dir, "--format", "json", *flags)
        assert first["query"] == expected["query"], args
        assert first["count"] == expected["count"], args
        assert first["tests_in_other_roles"] == expected["tests_in_other_roles"], args
        assert first["untested_ops"] == expected["untested_ops"], args
        assert items == expected[key], args
        if key == "generic_tests":
            assert first["tests"] == expected["tests"]
        # Provenance: exactly the runs the answer's edges name, each with
        # the torch that traced them.
        runs = {r for t in (items if key == "tests" else [x for g in items for x in g["tests"]])
                for use in t["ops"].values() for r in use["runs"]}
        prov = first["provenance"]
        assert {r["id"] for r in prov["runs"]} == runs - {"static"}, args
        assert prov["static"] == ("static" in runs), args
        for r in prov["runs"]:
            assert r["torch"]["version"] == torch.__version__
            assert r["torch"]["git_version"] == torch.version.git_version
            assert r["start_time"]


def test_tests_for_ops_all_and_any(index_dir):
    ops = [o["op"] for o in cli_json("ops", "--index", index_dir, "--format", "json")["ops"]][:8]
    pairs = [ops[i:i + 2] for i in range(0, 8, 2)] + [ops[:3], [ops[0], ops[-1], "mm"]]

    async def body(client):
        out = []
        for group in pairs:
            for match in ("all", "any"):
                first, items = await all_pages(client, "tests_for_ops", {"ops": group, "match": match},
                                               "tests", limit=50)
                out.append((group, match, first, items))
        return out

    answers = run_session(server(index_dir), body, mode="legacy")
    by_match = {}
    for group, match, first, items in answers:
        flags = [f for op in group for f in ("--op", op)] + (["--any"] if match == "any" else [])
        expected = cli_json("query", "--index", index_dir, "--format", "json", *flags)
        assert first["query"] == expected["query"]
        assert items == expected["tests"], (group, match)
        by_match[(tuple(group), match)] = {t["nodeid"] for t in items}
    # All is a subset of any, and some group tells them apart.
    for group in pairs:
        assert by_match[(tuple(group), "all")] <= by_match[(tuple(group), "any")]
    assert any(by_match[(tuple(g), "all")] < by_match[(tuple(g), "any")] for g in pairs)


def test_show_test_equals_cli(index_dir, evidence):
    with open(evidence["scan"], encoding="utf-8") as f:
        scanned = [json.loads(line) for line in f if line.strip()]
    nodeids = [t["nodeid"] for t in scanned][::25]
    generic = sorted({t["generic_id"] for t in scanned if t.get("generic_id")})
    generic_big = max(generic, key=lambda g: sum(t.get("generic_id") == g for t in scanned))

    async def body(client):
        tests = [await call(client, "show_test", {"test": n}) for n in nodeids]
        first, members = await all_pages(client, "show_test", {"test": generic_big}, "tests", limit=2)
        return tests, first, members

    tests, first, members = run_session(server(index_dir), body)
    for nodeid, doc in zip(nodeids, tests):
        expected = cli_json("show", "--index", index_dir, nodeid)
        prov = doc.pop("provenance")
        assert doc == expected
        assert {r["id"] for r in prov["runs"]} == set(expected["runs"])
    expected = cli_json("show", "--index", index_dir, generic_big)
    assert first["generic_id"] == generic_big and members == expected["tests"]
    assert len(members) > 2  # it did page
    assert first["runs"] == expected["runs"]


def test_list_ops_equals_cli(index_dir):
    async def body(client):
        return [await all_pages(client, "list_ops", {"sort": s}, "ops", limit=13) for s in ("tests", "name")]

    (by_tests, ops_t), (by_name, ops_n) = run_session(server(index_dir), body)
    for (first, items), sort in (((by_tests, ops_t), "tests"), ((by_name, ops_n), "name")):
        expected = cli_json("ops", "--index", index_dir, "--sort", sort, "--format", "json")
        assert first["count"] == expected["count"] and items == expected["ops"]
        assert first["provenance"]["runs"], "list_ops names the runs of the index"


def test_plan_equals_cli(index_dir):
    # A limit the traced timings fit in two splits: they are this machine's
    # (a compile test takes 10 s quiet and 35 s under load), so no fixed
    # number of minutes is feasible everywhere.
    two = cli_json("plan", "--index", index_dir, "--format", "json", "--splits", "2", "--procs", "2")
    minutes = two["makespan_seconds"] * 1.01 / (1 - two["options"]["margin"]) / 60
    cases = [
        ({"splits": 3}, ["--splits", "3"]),
        ({"splits": 2, "granularity": "file"}, ["--splits", "2", "--granularity", "file"]),
        ({"max_minutes": minutes, "procs": 2}, ["--max-minutes", repr(minutes), "--procs", "2"]),
        ({"splits": 4, "keep_together": "class", "split": 2},
         ["--splits", "4", "--keep-together", "class", "--split", "2"]),
    ]

    async def body(client):
        return [await all_pages(client, "plan", args, "split_items", limit=10) for args, _ in cases]

    for (args, flags), (first, items) in zip(cases, run_session(server(index_dir), body)):
        expected = cli_json("plan", "--index", index_dir, "--format", "json", *flags)
        expected_items = [{"split": s["split"], **item} for s in expected["plan"] for item in s["items"]]
        for s in expected["plan"]:
            del s["items"]
        assert items == expected_items, args
        prov = first.pop("provenance")
        first.pop("page")
        first.pop("split_items")
        assert first == expected, args
        assert prov["runs"]


def test_question_errors_are_tool_errors_with_suggestions(index_dir):
    async def body(client):
        unknown = await client.call_tool("query_op", {"op": "scaled_mm"})
        dtype = await client.call_tool("query_op", {"op": "mm", "dtypes": ["floot32"]})
        test = await client.call_tool("show_test", {"test": "nope.py::T::test_x"})
        plan = await client.call_tool("plan", {"splits": 2, "split": 9})
        return unknown, dtype, test, plan

    unknown, dtype, test, plan = run_session(server(index_dir), body)
    cli = run_testmap("query", "--index", index_dir, "--op", "scaled_mm", check=False)
    assert cli.returncode == 3
    for r in (unknown, dtype, test, plan):
        assert r.is_error and r.structured_content is None
    assert "aten::_scaled_mm" in unknown.content[0].text
    assert unknown.meta["io.testmap/error"]["suggestions"][0] in cli.stderr
    assert "float32" in dtype.meta["io.testmap/error"]["suggestions"]
    assert test.meta["io.testmap/error"]["kind"] == "unknown_name"
    assert "only" in plan.content[0].text and plan.meta["io.testmap/error"]["kind"] == "usage"


@pytest.mark.parametrize("tool, arguments, complaint", [
    ("query_op", {}, "op"),
    ("query_op", {"op": 5}, "arguments.op"),
    ("query_op", {"op": "mm", "path": "graph"}, "arguments.path"),
    ("query_op", {"op": "mm", "limit": 5000}, "arguments.limit"),
    ("query_op", {"op": "mm", "colour": "red"}, "colour"),
    ("tests_for_ops", {"ops": []}, "arguments.ops"),
    ("plan", {"splits": "3"}, "arguments.splits"),
])
def test_schema_violations_are_invalid_params(index_dir, tool, arguments, complaint):
    async def body(client):
        await client.list_tools()
        with pytest.raises(MCPError) as e:
            await client.call_tool(tool, arguments)
        return e.value

    error = run_session(server(index_dir), body)
    assert error.error.code == -32602
    assert complaint in error.error.message + json.dumps(error.error.data)


def test_cursors_are_checked(index_dir):
    async def body(client):
        first = await call(client, "query_op", {"op": "add", "limit": 1})
        cursor = first["page"]["next_cursor"]
        assert cursor
        errors = []
        # Cursors are opaque to clients; this test knows the server's form
        # (tm1.QUESTION.GENERATION.OFFSET) to forge one of another index state.
        forged = cursor.split(".")
        forged[2] = "5"
        for args in ({"op": "mm", "cursor": cursor}, {"op": "add", "cursor": "tm1.zz"},
                     {"op": "add", "cursor": ".".join(forged)}):
            try:
                await client.call_tool("query_op", args)
            except MCPError as e:
                errors.append(e.error.code)
        # Another limit may continue the same question.
        more = await call(client, "query_op", {"op": "add", "limit": 3, "cursor": cursor})
        return errors, more

    errors, more = run_session(server(index_dir), body)
    assert errors == [-32602, -32602, -32602]
    assert more["page"]["offset"] == 1 and more["page"]["returned"] == 3


def test_runs_as_resources(index_dir):
    async def body(client):
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        read = [await client.read_resource(r.uri) for r in listed.resources]
        first = await call(client, "query_op", {"op": "mm", "limit": 1})
        test = first["tests"][0]["nodeid"]
        from urllib.parse import quote
        doc = await client.read_resource("testmap://test/" + quote(test, safe=""))
        with pytest.raises(MCPError) as missing:
            await client.read_resource("testmap://run/0000000000000000")
        return listed, templates, read, test, doc, missing.value

    listed, templates, read, test, doc, missing = run_session(server(index_dir), body)
    stats = cli_json("stats", "--index", index_dir, "--format", "json")
    run_ids = {str(r.uri).rsplit("/", 1)[1] for r in listed.resources}
    assert run_ids == {r["id"] for r in stats["runs"]} and run_ids
    for r in read:
        rec = json.loads(r.contents[0].text)
        assert rec["metadata"]["torch"]["version"] == torch.__version__
    assert {t.name for t in templates.resource_templates} == {"run", "test"}
    assert json.loads(doc.contents[0].text) == cli_json("show", "--index", index_dir, test)
    assert missing.error.code == -32002
