"""The `diff` tool through the official MCP SDK client: each answer, all
pages of `generics` joined, equals `testmap diff OLD NEW --format json` run
here for the same question (the CLI a separate process over the same
library), on the example pair examples/diff (two real trees scanned against
the venv's torch), on their real `testmap scan --format jsonl` output, on
an index of a scan, and with the pair's test_suite_config. Every side,
config and Python lies under --allow; anything else is a tool error."""

import json
import os
import shutil
import sys

import jsonschema
import pytest
import torch
from mcp.shared.exceptions import MCPError

from conftest import ROOT, all_pages, call, cli_json, run_session, run_testmap, server

EXAMPLES = os.path.realpath(os.path.join(ROOT, "examples", "diff"))
OLD, NEW, CONFIG = (os.path.join(EXAMPLES, p) for p in ("old", "new", "config.yaml"))
# --no-cache: the tool scans trees without the scan cache (it writes
# nothing), and a cached scan leaves its side's torch_version empty.
TORCH_CLI = ["--old-torch-python", sys.executable, "--new-torch-python", sys.executable, "--no-cache"]
ROOT_TOKEN = "${TORCH_ROOT}/test"


def timeless(doc):
    """The answer without the times it took (they differ from run to run)."""
    doc = {k: v for k, v in doc.items() if k not in ("seconds", "page", "provenance", "generics")}
    for side in ("old", "new"):
        doc[side] = {k: v for k, v in doc[side].items() if k != "seconds"}
    return doc


@pytest.fixture(scope="session")
def sides(tmp_path_factory):
    """The pair's scans (`testmap scan --format jsonl` in each tree), an index
    of the old scan, and a broken config, in a directory the server may read."""
    d = tmp_path_factory.mktemp("diff-sides")
    for name, tree in (("old", OLD), ("new", NEW)):
        (d / f"{name}.jsonl").write_text(
            run_testmap("scan", ".", "--torch-python", sys.executable, "--format", "jsonl", cwd=tree).stdout)
    run_testmap("ingest", "--index", str(d / "index-old"), str(d / "old.jsonl"))
    (d / "broken.yaml").write_text("test_suite_config:\n  files:\n    - path: [unclosed\n")
    (d / "empty").mkdir()
    return d.resolve()


def diff_server(index, *allow):
    return server(index, *[a for p in allow for a in ("--allow", str(p))], "--torch-python", sys.executable)


def test_diff_equals_cli(index_dir, sides):
    s = str(sides)
    cases = [
        ({"old": OLD, "new": NEW}, TORCH_CLI),
        ({"old": OLD, "new": NEW, "config": CONFIG, "root_token": ROOT_TOKEN},
         TORCH_CLI + ["--config", CONFIG, "--root-token", ROOT_TOKEN]),
        ({"old": f"{s}/old.jsonl", "new": f"{s}/new.jsonl"}, []),
        ({"old": f"{s}/old.jsonl", "new": f"{s}/new.jsonl", "config": CONFIG, "root_token": ROOT_TOKEN},
         ["--config", CONFIG, "--root-token", ROOT_TOKEN]),
        ({"old": f"{s}/index-old", "new": f"{s}/new.jsonl"}, []),
        ({"old": f"{s}/new.jsonl", "new": NEW}, TORCH_CLI),
    ]

    async def body(client):
        return [await all_pages(client, "diff", args, "generics", limit=2) for args, _ in cases]

    answers = run_session(diff_server(index_dir, EXAMPLES, sides), body)
    for (args, flags), (first, generics) in zip(cases, answers):
        expected = cli_json("diff", args["old"], args["new"], "--format", "json", *flags)
        assert generics == expected["generics"], args
        assert timeless(first) == timeless(expected), args
        # Each generic test on exactly one page.
        ids = [g["generic_id"] for g in generics]
        assert len(ids) == len(set(ids)) == first["page"]["total"]
        files = {f["side"]: f for f in first["provenance"]["files"] if "side" in f}
        assert files["old"]["path"] == args["old"] and files["new"]["path"] == args["new"]
        assert files["old"]["kind"] == expected["old"]["kind"]
        if "config" in args:
            assert {"path": CONFIG, "bytes": os.path.getsize(CONFIG)} in first["provenance"]["files"]
    # The pair shows every status, it paged, and the config has each effect.
    trees = answers[0]
    assert {g["status"] for g in trees[1]} == {"added", "removed", "renamed", "changed"}
    assert trees[0]["page"]["total"] > 2 and trees[0]["counts"]["retrace"] > 0
    config = answers[1][0]["config"]
    assert config["stale"] and config["reevaluate"] and config["unlisted"] and config["patch"]
    # The trees were scanned with the server's torch, and say so.
    tree_file = [f for f in trees[0]["provenance"]["files"] if f.get("side") == "old"][0]
    assert tree_file["torch"]["version"] == torch.__version__ == trees[0]["old"]["torch_version"]
    assert tree_file["kind"] == "tree" and tree_file["torch_python"] == sys.executable
    # A scan and the index of the same scan are the same side.
    assert answers[4][1] == answers[2][1]


def test_index_side_names_its_runs(index_dir, evidence):
    """An index side's provenance lists its trace runs with their torch: the
    example suite's index (scan and trace) against its own scan."""
    scan = os.path.realpath(evidence["scan"])
    index = os.path.realpath(index_dir)
    args = {"old": index, "new": scan}

    async def body(client):
        every = await call(client, "list_ops", {"limit": 1})
        return every, await all_pages(client, "diff", args, "generics")

    every, (first, generics) = run_session(diff_server(index_dir, index, os.path.dirname(scan)), body)
    expected = cli_json("diff", index, scan, "--format", "json")
    assert generics == expected["generics"] and timeless(first) == timeless(expected)
    old = [f for f in first["provenance"]["files"] if f.get("side") == "old"][0]
    assert old["kind"] == "index" and old["ids"] == expected["old"]["ids"] > 0
    assert old["runs"] == every["provenance"]["runs"] and old["runs"]
    assert all(r["torch"]["version"] == torch.__version__ for r in old["runs"])


def test_listed_with_schemas_and_snapshot_sides(index_dir, sides):
    """tools/list shows diff with its schemas; a tree's torch given as
    snapshot files (under --allow) answers as the CLI's --old/new-snapshot."""

    async def snapshot_of(client):
        answer = await call(client, "admit", {"ops": ["add"], "limit": 1})
        return [f["path"] for f in answer["provenance"]["files"] if "torch" in f][0]

    snapshot = str(sides / "snapshot.json")
    shutil.copy(run_session(diff_server(index_dir), snapshot_of), snapshot)
    args = {"old": OLD, "new": NEW, "old_snapshot": snapshot, "new_snapshot": snapshot}

    async def body(client):
        listed = await client.list_tools()
        return [t for t in listed.tools if t.name == "diff"], await all_pages(client, "diff", args, "generics")

    tools, (first, generics) = run_session(server(index_dir, "--allow", EXAMPLES, "--allow", str(sides)), body)
    assert len(tools) == 1
    schema_in, schema_out = tools[0].input_schema, tools[0].output_schema
    assert schema_in["required"] == ["old", "new"] and {"limit", "cursor", "config"} <= set(schema_in["properties"])
    assert {"generics", "page", "provenance", "counts"} <= set(schema_out["properties"])
    jsonschema.validate(first, schema_out)
    expected = cli_json("diff", OLD, NEW, "--format", "json", "--old-snapshot", snapshot, "--new-snapshot", snapshot,
                        "--no-cache")
    assert generics == expected["generics"] and timeless(first) == timeless(expected)
    assert {f["snapshot"] for f in first["provenance"]["files"] if "side" in f} == {snapshot}


def test_torch_python_argument(index_dir, sides):
    """A tree's Python given to the tool (under --allow) instead of the server's."""
    venv_bin = os.path.dirname(sys.executable)
    args = {"old": OLD, "new": NEW, "old_torch_python": sys.executable, "new_torch_python": sys.executable}

    async def body(client):
        outside = await client.call_tool("diff", {**args, "old_torch_python": "/usr/bin/python3"})
        return outside, await all_pages(client, "diff", args, "generics")

    params = server(index_dir, "--allow", EXAMPLES, "--allow", venv_bin)
    outside, (first, generics) = run_session(params, body)
    expected = cli_json("diff", OLD, NEW, "--format", "json", *TORCH_CLI)
    assert generics == expected["generics"] and timeless(first) == timeless(expected)
    assert {f["torch_python"] for f in first["provenance"]["files"] if "side" in f} == {sys.executable}
    assert outside.is_error and "outside the allowed paths" in outside.content[0].text


def test_bad_diff_requests_are_errors(index_dir, sides, tmp_path):
    s = str(sides)
    outside = tmp_path / "outside.jsonl"
    shutil.copy(sides / "old.jsonl", outside)
    # A tree under --allow whose test file is a link out of it.
    linked = tmp_path / "allowed-tree"
    linked.mkdir()
    shutil.copy(os.path.join(OLD, "test_upgrade.py"), tmp_path / "test_out.py")
    os.symlink(tmp_path / "test_out.py", linked / "test_linked.py")
    good = {"old": f"{s}/old.jsonl", "new": f"{s}/new.jsonl"}

    async def body(client):
        errors = {
            "outside": await client.call_tool("diff", {**good, "old": str(outside)}),
            "dotdot": await client.call_tool("diff", {**good, "new": f"{s}/../outside.jsonl"}),
            "missing": await client.call_tool("diff", {**good, "new": f"{s}/nope.jsonl"}),
            "neither": await client.call_tool("diff", {**good, "old": f"{s}/empty"}),
            "link_out": await client.call_tool("diff", {**good, "new": str(linked)}),
            "config_outside": await client.call_tool("diff", {**good, "config": str(outside)}),
            "broken_config": await client.call_tool("diff", {**good, "config": f"{s}/broken.yaml"}),
            "not_a_scan": await client.call_tool("diff", {**good, "old": f"{s}/broken.yaml"}),
        }
        first = await call(client, "diff", {**good, "limit": 1})
        other = await call(client, "diff", {**good, "old": f"{s}/index-old", "limit": 1})
        invalid = []
        for args in [{"old": good["old"]}, {**good, "cursor": "not-a-cursor"},
                     {**good, "cursor": other["page"]["next_cursor"]}, {**good, "limit": 0},
                     {**good, "device": []}, {**good, "colour": 1}]:
            try:
                await client.call_tool("diff", args)
                invalid.append(None)
            except MCPError as e:
                invalid.append(e.error.code)
        alive = await call(client, "diff", {**good, "cursor": first["page"]["next_cursor"]})
        return errors, invalid, alive

    errors, invalid, alive = run_session(diff_server(index_dir, EXAMPLES, sides, linked), body)
    for name, r in errors.items():
        assert r.is_error and r.meta["io.testmap/error"]["kind"] == "input", name
    text = {n: r.content[0].text for n, r in errors.items()}
    assert "this server reads files only under" in text["outside"] and "outside" in text["dotdot"]
    assert "No such file" in text["missing"] or "no such file" in text["missing"]
    assert "neither an index" in text["neither"]
    assert "leads outside" in text["link_out"] and "test_linked.py" in text["link_out"]
    assert "outside the allowed paths" in text["config_outside"]
    # The config's line, as the CLI names it (file:line:column in the message).
    err = errors["broken_config"].meta["io.testmap/error"]
    assert err["file"] == f"{s}/broken.yaml" and err["line"] == 4, err
    cli = run_testmap("diff", good["old"], good["new"], "--config", f"{s}/broken.yaml", check=False)
    assert cli.returncode == 1 and err["message"] in cli.stderr
    assert err["message"].startswith(f"{s}/broken.yaml:4:1: malformed YAML")
    # A file that is no scan names its line, as the CLI does.
    not_scan = errors["not_a_scan"].meta["io.testmap/error"]
    assert not_scan["line"] == 1 and "not a scan record" in not_scan["message"]
    assert invalid == [-32602] * 6
    assert alive["page"]["offset"] == 1
