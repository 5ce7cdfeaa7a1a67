"""What no SDK would send, as raw bytes on the pipe: malformed and
oversized messages get JSON-RPC errors and the server goes on; pipelined
requests are answered concurrently, each once, by id; stdin closing ends
the server with exit 0 after its last answer."""

import json
import sys

from conftest import run_session, server
from wire import RawServer

PING = {"jsonrpc": "2.0", "id": "alive", "method": "ping"}


def test_malformed_messages_get_errors_and_the_server_goes_on(index_dir):
    s = RawServer(index_dir)
    cases = [
        (b"garbage", -32700),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "ping"', -32700),  # truncated
        (b'\xff\xfe{"jsonrpc": "2.0"}', -32700),                    # not UTF-8
        (b"[]", -32600),
        (b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600),  # batch
        (b"42", -32600),
        (b'{"id": 1, "method": "ping"}', -32600),                       # no jsonrpc
        (b'{"jsonrpc": "2.0", "id": null, "method": "ping"}', -32600),
        (b'{"jsonrpc": "2.0", "id": 1, "method": 7}', -32600),
        (b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]}', -32602),
        (b"[" * 100 + b"]" * 100, -32600),                               # too deep
        (b'{"jsonrpc": "2.0", "id": 1, "method": "no/such/method"}', -32601),
    ]
    for data, code in cases:
        s.send(data)
        reply = s.receive()
        assert reply["jsonrpc"] == "2.0" and reply["error"]["code"] == code, (data[:60], reply)
        assert "result" not in reply
    # Errors of the envelope name the id when there was a usable one.
    s.send(b'{"jsonrpc": "1.0", "id": 12, "method": "ping"}')
    assert s.receive()["id"] == 12
    s.request(13, "tools/call", {"name": "no_such_tool"})
    assert s.receive()["error"]["code"] == -32602
    s.request(14, "tools/call", {"name": "query_op", "arguments": "op=mm"})
    assert s.receive()["error"]["code"] == -32602
    s.send(PING)
    assert s.receive() == {"jsonrpc": "2.0", "id": "alive", "result": {}}
    assert s.close() == 0


def test_oversized_requests(index_dir):
    s = RawServer(index_dir)
    # Just under the 1 MiB limit: parsed, and the schema refuses the argument.
    op = "x" * (1024 * 1024 - 200)
    s.request(1, "tools/call", {"name": "query_op", "arguments": {"op": op}})
    reply = s.receive()
    assert reply["id"] == 1 and reply["error"]["code"] == -32602
    # Past it: refused by size, as it streams in, and the next request is answered.
    big = json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "query_op", "arguments": {"op": "y" * (3 << 20)}}})
    s.send(big)
    reply = s.receive()
    assert reply["id"] is None and reply["error"]["code"] == -32600
    assert reply["error"]["data"] == {"limit": 1 << 20, "bytes": len(big)}
    s.send(PING)
    assert s.receive()["id"] == "alive"
    # 8 MiB without a newline, then stdin closes: one error, exit 0.
    s.proc.stdin.write(b"z" * (8 << 20))
    rc = s.close()
    assert rc == 0
    reply = s.receive()
    assert reply["error"]["code"] == -32600 and reply["error"]["data"]["bytes"] == 8 << 20


def test_protocol_versions(index_dir):
    s = RawServer(index_dir)
    s.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                "clientInfo": {"name": "raw", "version": "0"}})
    assert s.receive()["result"]["protocolVersion"] == "2025-06-18"
    s.request(2, "initialize", {"protocolVersion": "2099-01-01", "capabilities": {},
                                "clientInfo": {"name": "raw", "version": "0"}})
    assert s.receive()["result"]["protocolVersion"] == "2025-11-25"
    s.request(3, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}})
    reply = s.receive()
    assert reply["error"]["code"] == -32022
    assert "2026-07-28" in reply["error"]["data"]["supported"]
    assert reply["error"]["data"]["requested"] == "2099-01-01"
    s.request(4, "server/discover", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                               "io.modelcontextprotocol/clientCapabilities": {}}})
    discover = s.receive()["result"]
    assert "2026-07-28" in discover["supportedVersions"] and discover["resultType"] == "complete"
    assert discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "testmap"
    assert s.close() == 0


def questions():
    qs = [("list_ops", {"limit": 1000}), ("plan", {"splits": 3, "limit": 1000})]
    for op in ("add", "mm", "mul", "sub", "_scaled_mm", "div", "t", "addmm", "eq", "abs"):
        qs.append(("query_op", {"op": op, "limit": 1000}))
        qs.append(("query_op", {"op": op, "dtypes": ["float32"], "limit": 1000}))
        qs.append(("tests_for_ops", {"ops": [op, "add"], "match": "any", "limit": 1000}))
    return qs


def test_pipelined_requests_are_answered_concurrently_by_id(index_dir):
    qs = questions()
    # One at a time, through the SDK: the reference answers.
    async def body(client):
        out = []
        for tool, args in qs:
            r = await client.call_tool(tool, args)
            out.append(r.structured_content if not r.is_error else r.content[0].text)
        return out

    reference = run_session(server(index_dir), body)
    # All at once on the raw pipe, three times over, before reading anything.
    s = RawServer(index_dir, "--workers", "4")
    ids = []
    batch = b""
    for round in range(3):
        for i, (tool, args) in enumerate(qs):
            id = f"{round}-{i}"
            ids.append((id, i))
            batch += json.dumps({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                                 "params": {"name": tool, "arguments": args}}).encode() + b"\n"
    s.send(batch)
    replies = {}
    order = []
    for _ in ids:
        r = s.receive(timeout=60)
        assert r["id"] not in replies, "answered twice"
        replies[r["id"]] = r
        order.append(r["id"])
    assert s.close() == 0
    for id, i in ids:
        result = replies[id]["result"]
        got = result["structuredContent"] if not result["isError"] else result["content"][0]["text"]
        assert got == reference[i], (id, qs[i])


def random_value(rng, depth=0):
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return rng.randrange(-10**6, 10**6)
    if kind == 1:
        return rng.random() * 1e6
    if kind == 2:
        return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(20)))
    if kind == 3:
        return rng.choice([True, False, None])
    if kind == 4:
        return rng.choice(["mm", "add", "aten::add.Tensor", "float32", "cpu", "eager", "generic", "", "x" * 400,
                           "all", "assert", "blocked", "privateuse1:toy", "/etc/passwd"])
    if kind == 5:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["op", "ops", "dtypes", "device", "path", "group", "match", "limit", "cursor", "test", "sort",
            "splits", "max_minutes", "timing_files", "index", "split", "granularity", "zzz", "role",
            "backend", "supported", "state", "new_ops", "steps", "config", "root_token", "dispatch_key",
            "old", "new"]
    return {rng.choice(keys): random_value(rng, depth + 1) for _ in range(rng.randrange(5))}


def test_random_messages_each_get_one_answer(index_dir):
    """A seeded stream of garbage and of well-formed requests with random
    params: every request gets exactly one answer, garbage one error each,
    and the server ends cleanly."""
    import random
    rng = random.Random(1313)
    tools = ["query_op", "tests_for_ops", "show_test", "list_ops", "plan", "admit", "rank_next_ops",
             "config_explain", "diff", "nope"]
    methods = ["tools/call"] * 6 + ["tools/list", "ping", "initialize", "resources/read", "resources/list",
                                    "server/discover", "unknown/method"]
    s = RawServer(index_dir, "--torch-python", sys.executable)
    batch, ids, garbage = b"", set(), 0
    for i in range(400):
        if rng.random() < 0.25:
            line = b"{" + bytes(rng.choice([b for b in range(256) if b not in (10, 13)])
                                for _ in range(rng.randrange(1, 200)))
            garbage += 1
        else:
            method = rng.choice(methods)
            params = ({"name": rng.choice(tools), "arguments": random_value(rng)} if method == "tools/call"
                      and rng.random() < 0.9 else random_value(rng))
            msg = {"jsonrpc": "2.0", "id": i, "method": method, "params": params}
            line = json.dumps(msg).encode()
            ids.add(i)
        batch += line + b"\n"
    s.send(batch)
    answered, nulls = [], 0
    for _ in range(len(ids) + garbage):
        r = s.receive(timeout=60)
        assert ("result" in r) != ("error" in r), r
        if r["id"] is None:
            nulls += 1
        else:
            answered.append(r["id"])
    assert s.close() == 0
    # Garbage is answered with id null, every request by its id (also when
    # its params are no object: the envelope's id is readable).
    assert sorted(answered) == sorted(ids)
    assert nulls == garbage
    assert "internal error" not in s.stderr()
