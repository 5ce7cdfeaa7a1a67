"""Admission computed independently of testmap: straight from the trace
shards and scan JSONL (plain json), with torch's live dispatcher for the
CompositeImplicitAutograd rule. The ground truth `testmap admit` is tested
against (tests/mapper/admit), and the Python peer its benchmark measures it
against (benchmarks/mapper/admit, with --no-torch: synthetic operators).

    python admit_reference.py --trace T.jsonl --scan S.jsonl --ops add,mul --dtypes float32
    python admit_reference.py --trace T.jsonl --records backend.jsonl --summary

Prints {nodeid: {"state", "missing": [op...], "dtype_blocked"}} as JSON, or
with --summary only the counts (and --rank: the operators that alone admit
the most blocked tests).
"""

import argparse
import collections
import json
import sys


def packet_of(op):
    head, _, _ = op.partition(".")
    return head


def canonical(name):
    """`add` -> aten::add (a packet), `add.Tensor` -> aten::add.Tensor."""
    if "::" not in name:
        name = "aten::" + name
    return name


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--trace", action="append", default=[])
    ap.add_argument("--scan", action="append", default=[])
    ap.add_argument("--ops", default="")
    ap.add_argument("--dtypes", default="")
    ap.add_argument("--records", default="")
    ap.add_argument("--dispatch-key", default="PrivateUse1")
    ap.add_argument("--no-torch", action="store_true")
    ap.add_argument("--summary", action="store_true")
    ap.add_argument("--rank", action="store_true")
    a = ap.parse_args()

    kernels, packets, decomposed, fallback = set(), set(), set(), False
    for name in filter(None, a.ops.split(",")):
        name = canonical(name)
        (packets if "." not in name.split("::")[1] else kernels).add(name)
    if a.records:
        for r in read_jsonl(a.records):
            key, kind, op = r.get("dispatch_key"), r["kind"], r.get("op")
            if kind == "kernel" and key in (a.dispatch_key, "CompositeExplicitAutograd"):
                kernels.add(op)
            elif kind == "kernel" and key == "CompositeImplicitAutograd":
                decomposed.add(op)
            elif kind == "fallback" and key == a.dispatch_key and not op:
                fallback = True
    dtypes = set(filter(None, a.dtypes.split(","))) or None

    has_cia = None
    if not a.no_torch:
        import torch

        def has_cia(op):
            try:
                return torch._C._dispatch_has_kernel_for_dispatch_key(
                    op, "CompositeImplicitAutograd")
            except RuntimeError:
                return False

    runnable_cache = {}

    def runnable(op):
        if op not in runnable_cache:
            runnable_cache[op] = (op in kernels or packet_of(op) in packets or fallback
                                  or op in decomposed or bool(has_cia and has_cia(op)))
        return runnable_cache[op]

    params = {}
    for path in a.scan:
        for r in read_jsonl(path):
            params[r["nodeid"]] = r.get("params", {}).get("dtypes", [])
    ops = collections.defaultdict(set)
    outcome = {}  # nodeid -> (start, outcome)
    for path in a.trace:
        for r in read_jsonl(path):
            if r.get("type") != "test":
                continue
            nodeid = r["nodeid"]
            for o in r.get("ops", []):
                if not runnable(o["op"]):
                    ops[nodeid].add(o["op"])
            start = r.get("start", 0)
            if nodeid not in outcome or start >= outcome[nodeid][0]:
                outcome[nodeid] = (start, r.get("outcome", ""))
            ops.setdefault(nodeid, set())

    answer = {}
    for nodeid in sorted(set(params) | set(outcome)):
        missing = sorted(ops.get(nodeid, ()))
        dtype_blocked = dtypes is not None and any(d not in dtypes for d in params.get(nodeid, []))
        done = outcome.get(nodeid, (0, ""))[1] in ("passed", "xpassed")
        state = "blocked" if missing or dtype_blocked else ("admitted" if done else "unknown")
        answer[nodeid] = {"state": state, "missing": missing, "dtype_blocked": dtype_blocked,
                          "complete": done}
    if a.summary:
        counts = collections.Counter(v["state"] for v in answer.values())
        out = {"tests": len(answer), **counts}
        if a.rank:
            alone = collections.Counter(v["missing"][0] for v in answer.values()
                                        if len(v["missing"]) == 1 and not v["dtype_blocked"]
                                        and v["complete"])
            out["rank"] = alone.most_common(10)
        json.dump(out, sys.stdout)
    else:
        json.dump(answer, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
