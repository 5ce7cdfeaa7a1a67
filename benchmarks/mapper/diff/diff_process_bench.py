#!/usr/bin/env python3
"""Whole-process speed of `testmap diff` against the same comparison in Python.

Generates two scans (`testmap scan --format jsonl` records, with content
identities) of G generic tests and 10 ids each (default 50,000 / 500,000):
the new side adds 2% of generic tests, removes 2%, renames 1%, changes the
body of 3%, adds a dtype (one id) to 3% and changes an OpInfo entry of 2%,
as a PyTorch upgrade does. Then runs, interleaved and repeated, as whole
processes:
  - testmap diff OLD NEW --format json > /dev/null
  - a Python script doing the same set comparison over the two JSONL files
    (json.loads per line, dicts of generic test -> ids and hashes, set
    differences), printing the counts: what a user would write instead.
Prints the median of each (wall and CPU time), the ratio, and checks that
both found the same number of added, removed and changed generic tests.

Usage: diff_process_bench.py [--testmap build/bin/testmap] [--rounds 3]
       [--generics 50000] [--ids-per-generic 10]
"""
import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time

PEER = r"""
import json, sys
def load(path):
    sides = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            c = r["content"]
            sides.setdefault(r["generic_id"], {})[r["nodeid"]] = (
                c["body"], c["decorators"], c["setup"], c["entry"], c["dtypes"])
    return sides
old, new = load(sys.argv[1]), load(sys.argv[2])
added = new.keys() - old.keys()
removed = old.keys() - new.keys()
old_bodies = {}
for g in removed:
    old_bodies.setdefault(next(iter(old[g].values()))[0], []).append(g)
renamed = 0
for g in sorted(added):
    body = next(iter(new[g].values()))[0]
    if old_bodies.get(body):
        old_bodies[body].pop()
        renamed += 1
# Ids of added and removed generic tests count as added and removed.
ids_added = sum(len(new[g]) for g in added)
ids_removed = sum(len(old[g]) for g in removed)
changed = ids_changed = 0
for g in old.keys() & new.keys():
    o, n = old[g], new[g]
    a, r = n.keys() - o.keys(), o.keys() - n.keys()
    c = [i for i in o.keys() & n.keys() if o[i][3:] != n[i][3:]]
    first_o, first_n = next(iter(o.values())), next(iter(n.values()))
    if a or r or c or first_o[:3] != first_n[:3]:
        changed += 1
    ids_added += len(a); ids_removed += len(r); ids_changed += len(c)
print(json.dumps({"added": len(added) - renamed, "removed": len(removed) - renamed,
                  "renamed": renamed, "changed": changed, "ids_added": ids_added,
                  "ids_removed": ids_removed, "ids_changed": ids_changed}))
"""


def record(f, g, i, body, entry, dtype):
    cls = f"TestC{g % 7}"
    nodeid = f"test/test_f{g // 100}.py::{cls}CPU::test_{g}_op{i}_cpu_{dtype}"
    return json.dumps({
        "nodeid": nodeid, "generic_id": f"test/test_f{g // 100}.py::{cls}::test_{g}",
        "file": f"test/test_f{g // 100}.py", "class": cls + "CPU",
        "method": f"test_{g}_op{i}_cpu_{dtype}", "generic_class": cls,
        "generic_method": f"test_{g}", "kind": "device_type", "line_start": 10 + g % 900,
        "line_end": 20 + g % 900,
        "params": {"device": "cpu", "dtypes": [dtype], "op": f"op{i}", "op_variant": "",
                   "module": "", "training": None, "values": {}},
        "decorators": ["ops(op_db, allowed_dtypes=(torch.float32, torch.float64))"],
        "skips": [], "source_hash": f"{body:032x}",
        "content": {"body": f"{body:016x}", "decorators": "a1b2c3d4e5f60718",
                    "setup": "0f1e2d3c4b5a6978", "entry": f"{entry:016x}",
                    "dtypes": "1122334455667788"}}, separators=(",", ":"))


def write_sides(dir, generics, per):
    rng = random.Random(12)
    old_path, new_path = os.path.join(dir, "old.jsonl"), os.path.join(dir, "new.jsonl")
    dtypes = ["float32", "float64", "bfloat16", "float16", "int64", "int32", "int8", "uint8",
              "bool", "complex64", "complex128"]
    with open(old_path, "w") as old, open(new_path, "w") as new:
        for g in range(generics):
            roll = rng.random()
            body = g * 7919 + 1
            for i in range(per):
                line = record(old, g, i, body, i, dtypes[i % per % len(dtypes)])
                old.write(line + "\n")
            if roll < 0.02:  # removed
                continue
            if roll < 0.03:  # renamed: same body under another name
                for i in range(per):
                    new.write(record(new, g + 10_000_000, i, body, i, dtypes[i % len(dtypes)])
                              + "\n")
                continue
            changed_body = body + 1 if roll < 0.06 else body
            extra = 1 if 0.06 <= roll < 0.09 else 0
            for i in range(per + extra):
                entry = i + 1000 if 0.09 <= roll < 0.11 and i == 0 else i
                new.write(record(new, g, i, changed_body, entry,
                                 dtypes[i % len(dtypes)] if i < per else "complex128") + "\n")
        for g in range(generics, generics + generics // 50):  # added
            for i in range(per):
                new.write(record(new, g, i, g * 7919 + 3, i, dtypes[i % len(dtypes)]) + "\n")
    return old_path, new_path


def timed(argv, stdout):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, stdout=stdout, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--testmap", default="build/bin/testmap")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--generics", type=int, default=50_000)
    ap.add_argument("--ids-per-generic", type=int, default=10)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as dir:
        old, new = write_sides(dir, a.generics, a.ids_per_generic)
        sizes = [os.path.getsize(p) for p in (old, new)]
        print(f"sides: {sizes[0] / 1e6:.0f} MB and {sizes[1] / 1e6:.0f} MB of scan JSONL")
        peer = os.path.join(dir, "peer.py")
        with open(peer, "w") as f:
            f.write(PEER)
        ours, theirs = [], []
        for _ in range(a.rounds):
            with open(os.devnull, "w") as null:
                ours.append(timed([a.testmap, "diff", old, new, "--format", "json"], null))
                theirs.append(timed([a.python, peer, old, new], null))
        out = subprocess.run([a.testmap, "diff", old, new, "--format", "json"],
                             capture_output=True, text=True, check=True).stdout
        counts = json.loads(out)["counts"]
        peer_counts = json.loads(subprocess.run([a.python, peer, old, new], capture_output=True,
                                                text=True, check=True).stdout)
        for k in ("added", "removed", "renamed", "changed", "ids_added", "ids_removed",
                  "ids_changed"):
            mark = "" if counts[k] == peer_counts[k] else "  MISMATCH"
            print(f"  {k}: testmap {counts[k]}, python {peer_counts[k]}{mark}")
        med = lambda xs, k: statistics.median(x[k] for x in xs)
        print(f"testmap diff: wall {med(ours, 0):.2f} s, cpu {med(ours, 1):.2f} s (median of "
              f"{a.rounds})")
        print(f"python sets : wall {med(theirs, 0):.2f} s, cpu {med(theirs, 1):.2f} s")
        print(f"ratio (python / testmap): wall {med(theirs, 0) / med(ours, 0):.1f}x, "
              f"cpu {med(theirs, 1) / med(ours, 1):.1f}x")


if __name__ == "__main__":
    main()
