"""admit, rank_next_ops and config_explain through the official MCP SDK
client, and query_op's `role`: each answer, all pages joined, equals the
CLI's JSON for the same question (`testmap admit --format json`, `admit
--rank`, `config explain --format json`, `query --role`), on an index of
the example suite's real scan and trace with a toy backend's records
ingested (`ingest --backend toy`). Files the tools read (records, configs)
lie under --allow; the server and the CLI read the same torch."""

import json
import os
import shutil
import sys

import pytest
import torch
from mcp.shared.exceptions import MCPError

from conftest import ROOT, all_pages, call, cli_json, run_session, run_testmap, server

# A toy backend: kernels for a few operators on PrivateUse1, one on
# CompositeExplicitAutograd (serves every key), an autograd kernel and a
# fallthrough that make nothing runnable, and no fallback, so that the
# example suite has admitted, blocked and unknown tests.
KERNELS = ["aten::add.Tensor", "aten::mul.Tensor", "aten::eq.Tensor", "aten::abs", "aten::ne.Scalar",
           "aten::all", "aten::isnan", "aten::empty.memory_format", "aten::_local_scalar_dense",
           "aten::arange", "aten::ones", "aten::view", "aten::mm"]


def record(op, key="PrivateUse1", kind="kernel"):
    return json.dumps({"op": op, "dispatch_key": key, "kind": kind, "mechanism": "m.impl",
                       "file": "csrc/ops.cpp", "line": 3, "evidence": "static"})


TORCH = ["--torch-python", sys.executable]
CONFIG_ROOT = "${TORCH_ROOT}/test"  # the example suite's ids start at examples/suite


@pytest.fixture(scope="session")
def allowed(tmp_path_factory):
    """The directory the server may read: the backend's records and configs."""
    d = tmp_path_factory.mktemp("allowed")
    (d / "toy.jsonl").write_text("\n".join(
        [record(op) for op in KERNELS] +
        [record("aten::zeros", "CompositeExplicitAutograd"), record("aten::sub.Tensor", "AutogradPrivateUse1"),
         record("aten::neg", kind="fallthrough")]) + "\n")
    (d / "fewer.jsonl").write_text(record("aten::add.Tensor") + "\n" + record("aten::mul.Tensor") + "\n")
    shutil.copy(os.path.join(ROOT, "examples", "backend-config", "example_suite.yaml"), d / "suite.yaml")
    (d / "broken.yaml").write_text("test_suite_config:\n  files:\n    - path: [unclosed\n")
    return d


@pytest.fixture(scope="session")
def backend_index(evidence, allowed, tmp_path_factory):
    """The suite's scan and trace, the toy backend's records and the suite
    scanned for the backend's own device (its PRIVATEUSE1 ids)."""
    d = tmp_path_factory.mktemp("mcp-admit")
    device_scan = d / "scan-toy.jsonl"
    device_scan.write_text(run_testmap("scan", ".", "--device", "privateuse1:toy", "--format", "jsonl",
                                       *TORCH, cwd=evidence["suite"]).stdout)
    path = str(d / "index")
    run_testmap("ingest", "--index", path, "--backend", "toy", evidence["scan"], evidence["trace"],
                str(device_scan), str(allowed / "toy.jsonl"))
    return path


def admit_server(index, allowed):
    return server(index, "--allow", str(allowed), *TORCH)


def without(doc, *keys):
    return {k: v for k, v in doc.items() if k not in keys}


ADMIT_CASES = [
    # (tool arguments, CLI flags); {allowed} is the allowed directory.
    ({"backend": "toy"}, ["--backend", "toy"]),
    ({"backend": "toy", "state": "blocked"}, ["--backend", "toy", "--state", "blocked"]),
    ({"supported": "{allowed}/fewer.jsonl", "backend": "few"},
     ["--supported", "{allowed}/fewer.jsonl", "--backend", "few"]),
    ({"supported": "{allowed}/suite.yaml", "root_token": CONFIG_ROOT, "state": "admitted"},
     ["--supported", "{allowed}/suite.yaml", "--root-token", CONFIG_ROOT, "--state", "admitted"]),
    ({"ops": ["add", "mul", "eq", "abs", "isnan", "view"], "dtypes": ["float32", "int64"]},
     ["--ops", "add,mul,eq,abs,isnan,view", "--dtypes", "float32,int64"]),
    ({"backend": "toy", "device": "privateuse1:toy", "state": "admitted"},
     ["--backend", "toy", "--device", "privateuse1:toy", "--state", "admitted"]),
]


def fill(value, allowed):
    if isinstance(value, str):
        return value.replace("{allowed}", str(allowed))
    if isinstance(value, list):
        return [fill(v, allowed) for v in value]
    return {k: fill(v, allowed) for k, v in value.items()}


def test_admit_equals_cli(backend_index, allowed):
    cases = [(fill(a, allowed), fill(f, allowed)) for a, f in ADMIT_CASES]

    async def body(client):
        return [await all_pages(client, "admit", args, "tests", limit=40) for args, _ in cases]

    answers = run_session(admit_server(backend_index, allowed), body)
    states = set()
    for (args, flags), (first, items) in zip(cases, answers):
        expected = cli_json("admit", "--index", backend_index, "--format", "json", *flags, *TORCH)
        assert items == expected["tests"], args
        assert without(first, "tests", "page", "provenance", "warnings") == without(expected, "tests"), args
        assert first["page"]["total"] == len(expected["tests"])
        states |= {t["state"] for t in items}
        prov = first["provenance"]
        assert prov["runs"] and all(r["torch"]["version"] == torch.__version__ for r in prov["runs"])
        snapshot = [f for f in prov["files"] if "torch" in f]
        assert len(snapshot) == 1 and snapshot[0]["torch"]["version"] == torch.__version__
        assert os.path.isfile(snapshot[0]["path"])
        if "supported" in args:
            assert {"path": args["supported"], "bytes": os.path.getsize(args["supported"])} in prov["files"]
    # The cases between them show every state, and the backend really blocks.
    assert states == {"admitted", "blocked", "unknown"}
    assert answers[0][0]["counts"]["blocked"] > 0 and answers[0][0]["counts"]["admitted"] > 0
    # The backend's own ids, each decided by its traced twin.
    own = answers[-1][1]
    assert own and all("PRIVATEUSE1" in t["nodeid"] and t["evidence_id"] != t["nodeid"] for t in own)


def test_admit_new_ops_lists_exactly_the_tests_they_admit(backend_index, allowed):
    rank = cli_json("admit", "--index", backend_index, "--backend", "toy", "--rank", "--format", "json",
                    *TORCH)["rank"]
    top = [g["op"] for g in rank["ops"] if g["tests"] > 0][:2]
    assert top, rank

    async def body(client):
        return await all_pages(client, "admit", {"backend": "toy", "new_ops": top}, "tests", limit=5)

    first, items = run_session(admit_server(backend_index, allowed), body)
    expected = cli_json("admit", "--index", backend_index, "--backend", "toy", "--new-op", ",".join(top),
                        "--format", "json", *TORCH)
    assert [t["nodeid"] for t in items] == expected["new_op"]["admits"]
    by_id = {t["nodeid"]: t for t in expected["tests"]}
    assert items == [by_id[t["nodeid"]] for t in items]
    assert first["new_op"] == {"ops": expected["new_op"]["ops"], "tests": len(items)}
    assert len(items) >= rank["ops"][0]["tests"] > 0


def test_rank_next_ops_equals_cli(backend_index, allowed):
    cases = [({"backend": "toy"}, ["--backend", "toy"]),
             ({"backend": "toy", "steps": 3}, ["--backend", "toy", "--steps", "3"]),
             ({"supported": str(allowed / "fewer.jsonl")}, ["--supported", str(allowed / "fewer.jsonl")])]

    async def body(client):
        return [await all_pages(client, "rank_next_ops", args, "ops", limit=7) for args, _ in cases]

    for (args, flags), (first, ops) in zip(cases, run_session(admit_server(backend_index, allowed), body)):
        expected = cli_json("admit", "--index", backend_index, "--rank", "--format", "json", *flags, *TORCH)
        assert ops == expected["rank"]["ops"], args
        assert first["steps"] == expected["rank"]["steps"], args
        assert first["unlockable"] == expected["rank"]["unlockable"]
        assert first["counts"] == expected["counts"] and first["capabilities"] == expected["capabilities"]
        assert len(ops) > 7  # it did page
    assert len(first["steps"]) <= 10


def test_config_explain_equals_cli(backend_index, allowed):
    config = str(allowed / "suite.yaml")
    some = "test_binary_ops.py::TestBinaryOps::test_add"
    cases = [({"config": config, "root_token": CONFIG_ROOT}, ["--root-token", CONFIG_ROOT]),
             ({"config": config, "root_token": CONFIG_ROOT, "test": some},
              ["--root-token", CONFIG_ROOT, "--test", some]),
             ({"config": config}, [])]

    async def body(client):
        return [await all_pages(client, "config_explain", args, "tests", limit=60) for args, _ in cases]

    answers = run_session(admit_server(backend_index, allowed), body)
    for (args, flags), (first, items) in zip(cases, answers):
        expected = cli_json("config", "explain", config, "--index", backend_index, "--format", "json", *flags)
        assert items == expected["tests"], args
        assert first["config"] == expected["config"] and first["counts"] == expected["counts"], args
        assert {"path": config, "bytes": os.path.getsize(config)} in first["provenance"]["files"]
    # The config governs tests in every mode, and --test narrows the list.
    assert {"mandatory_success", "xfail", "xfail_strict", "skip"} <= set(answers[0][0]["counts"])
    assert 1 < len(answers[1][1]) < len(answers[0][1])


def test_query_role_equals_cli(index_dir):
    cases = [({"op": "abs"}, []), ({"op": "abs", "role": "all"}, ["--role", "all"]),
             ({"op": "abs", "role": ["assert", "inputs"]}, ["--role", "assert,inputs"]),
             ({"op": "abs", "role": "test,assert"}, ["--role", "test,assert"]),
             ({"op": "eq", "role": "assert", "dtypes": ["float32"]}, ["--role", "assert", "--dtype", "float32"])]

    async def body(client):
        out = [await all_pages(client, "query_op", args, "tests", limit=30) for args, _ in cases]
        out.append(await all_pages(client, "tests_for_ops", {"ops": ["abs", "eq"], "role": "all"}, "tests"))
        return out

    answers = run_session(server(index_dir), body)
    for (args, flags), (first, items) in zip(cases, answers):
        expected = cli_json("query", "--index", index_dir, "--op", args["op"], "--format", "json", *flags)
        assert without(first, "tests", "page", "provenance") == without(expected, "tests"), args
        assert items == expected["tests"], args
    expected = cli_json("query", "--index", index_dir, "--op", "abs", "--op", "eq", "--role", "all",
                        "--format", "json")
    assert answers[-1][1] == expected["tests"]
    # Roles change the answer: assertEqual's abs is not the test's.
    own, every = len(answers[0][1]), len(answers[1][1])
    assert 0 < own < every, (own, every)


def test_bad_arguments_are_errors_never_crashes(backend_index, allowed, tmp_path):
    outside = tmp_path / "outside.jsonl"
    outside.write_text(record("aten::add.Tensor") + "\n")

    async def body(client):
        tool_errors = {
            "nothing": await client.call_tool("admit", {}),
            "unknown_backend": await client.call_tool("admit", {"backend": "tyo", "state": "blocked"}),
            "unknown_op": await client.call_tool("admit", {"ops": ["addd"]}),
            "outside": await client.call_tool("admit", {"supported": str(outside)}),
            "dotdot": await client.call_tool("admit", {"supported": str(allowed / ".." / "x.jsonl")}),
            "missing": await client.call_tool("config_explain", {"config": str(allowed / "nope.yaml")}),
            "broken": await client.call_tool("config_explain", {"config": str(allowed / "broken.yaml")}),
            "state_and_new": await client.call_tool("admit", {"backend": "toy", "state": "blocked",
                                                              "new_ops": ["abs"]}),
            "device": await client.call_tool("admit", {"backend": "toy", "device": "cuda:0"}),
            "unknown_test": await client.call_tool("config_explain", {"config": str(allowed / "suite.yaml"),
                                                                      "test": "nope.py::T::test_x"}),
            "role": await client.call_tool("query_op", {"op": "abs", "role": "asert"}),
            "rank_backend": await client.call_tool("rank_next_ops", {"backend": "nope"}),
        }
        invalid = []
        for tool, args in [("admit", {"state": "maybe", "backend": "toy"}), ("admit", {"ops": []}),
                           ("admit", {"backend": 3}), ("admit", {"backend": "toy", "colour": 1}),
                           ("rank_next_ops", {"backend": "toy", "steps": -1}),
                           ("config_explain", {}), ("config_explain", {"config": "a", "limit": 0}),
                           ("query_op", {"op": "abs", "role": 5}),
                           ("query_op", {"op": "abs", "role": []})]:
            try:
                await client.call_tool(tool, args)
                invalid.append(None)
            except MCPError as e:
                invalid.append(e.error.code)
        alive = await call(client, "admit", {"backend": "toy", "limit": 1})
        return tool_errors, invalid, alive

    tool_errors, invalid, alive = run_session(admit_server(backend_index, allowed), body)
    for name, r in tool_errors.items():
        assert r.is_error and r.structured_content is None, name
    kind = {n: r.meta["io.testmap/error"]["kind"] for n, r in tool_errors.items()}
    assert kind == {"nothing": "usage", "unknown_backend": "unknown_name", "unknown_op": "unknown_name",
                    "outside": "input", "dotdot": "input", "missing": "input", "broken": "input",
                    "state_and_new": "usage", "device": "usage", "unknown_test": "unknown_name",
                    "role": "unknown_name", "rank_backend": "unknown_name"}
    # The same suggestions and lines as the CLI's (exit 3 and 1).
    cli = run_testmap("admit", "--index", backend_index, "--backend", "tyo", *TORCH, check=False)
    assert cli.returncode == 3
    assert tool_errors["unknown_backend"].meta["io.testmap/error"]["suggestions"] == ["toy"]
    assert "toy" in cli.stderr
    assert "this server reads files only under" in tool_errors["outside"].content[0].text
    broken = run_testmap("config", "explain", str(allowed / "broken.yaml"), "--index", backend_index,
                         check=False)
    assert broken.returncode == 1
    err = tool_errors["broken"].meta["io.testmap/error"]
    # The config reader names file, line and column in the message, as the CLI prints it.
    assert err["message"].startswith(str(allowed / "broken.yaml") + ":4:1: malformed YAML"), err
    assert err["message"] in broken.stderr
    assert "assert" in tool_errors["role"].meta["io.testmap/error"]["suggestions"]
    assert invalid == [-32602] * 9
    assert alive["counts"]["tests"] > 0


def test_supported_file_changes_are_seen(backend_index, allowed, tmp_path):
    own = tmp_path / "own"
    own.mkdir()
    records = own / "r.jsonl"
    records.write_text(record("aten::add.Tensor") + "\n")

    async def body(client):
        before = await call(client, "admit", {"supported": str(records), "limit": 1})
        records.write_text("\n".join(record(op) for op in KERNELS) + "\n")
        after = await call(client, "admit", {"supported": str(records), "limit": 1})
        return before, after

    before, after = run_session(server(backend_index, "--allow", str(own), *TORCH), body)
    assert before["capabilities"]["kernels"] == 1 and after["capabilities"]["kernels"] == len(KERNELS)
    assert after["counts"]["admitted"] > before["counts"]["admitted"]
