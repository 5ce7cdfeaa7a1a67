#!/usr/bin/env python3
"""Whole-process speed of `testmap plan` against pytest-split, same input.

Generates a .test_durations with N tests (heavy-tailed durations, 100 tests
a file) and JUnit reports on one line (as pytest writes them), then runs,
interleaved and repeated, as whole processes:
  - testmap plan FILE --splits 100 --format nodeids --split 1
  - pytest-split's own algorithm (pytest_split.algorithms, least_duration)
    on the same durations and the same test list, printing group 1: what
    `pytest --splits 100 --group 1` computes after collection (its
    collection of N tests, which a real run also pays, is left out, so
    the comparison favours pytest-split).
Prints the median of each (wall and CPU time) and the ratios.

Usage: plan_process_bench.py [--testmap build/bin/testmap] [--python PY]
       [--rounds 5] [--sizes 10000,20000,100000] [--junit 25000,50000]
PY must have pytest-split installed (pinned: pytest-split==0.11.0).
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
from pytest_split.algorithms import Algorithms
class Item:
    __slots__ = ("nodeid",)
    def __init__(self, nodeid): self.nodeid = nodeid
durations = json.load(open(sys.argv[1]))
items = [Item(i) for i in durations]  # the collected tests, in file order
groups = Algorithms.least_duration.value(int(sys.argv[2]), items, durations)
sys.stdout.write("\n".join(i.nodeid for i in groups[0].selected) + "\n")
"""


def ids(n):
    files = max(1, n // 100)
    return [f"tests/test_f{i % files}.py::TestC{i % 7}::test_{i}" for i in range(n)]


def write_durations(path, n):
    rng = random.Random(1)
    with open(path, "w") as f:
        json.dump({i: round(rng.lognormvariate(-1, 1.5), 4) for i in ids(n)}, f, indent=4)


def write_junit(path, n):
    rng = random.Random(1)
    parts = ['<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" '
             'tests="%d" time="%d">' % (n, n)]
    for i in ids(n):
        p, cls, name = i.split("::")
        parts.append('<testcase classname="%s.%s" name="%s" time="%.4f" />'
                     % (p[:-3].replace("/", "."), cls, name, rng.lognormvariate(-1, 1.5)))
    parts.append("</testsuite></testsuites>")
    with open(path, "w") as f:
        f.write("".join(parts))


def seconds(argv):
    """(wall, cpu) seconds of one whole process: on a shared machine the
    CPU time (user + sys) is the steadier of the two."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def medians(runs):
    return statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--testmap", default=os.path.join(here, "../../build/bin/testmap"))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sizes", default="10000,20000,100000")
    ap.add_argument("--junit", default="25000,50000")
    ap.add_argument("--splits", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        peer = os.path.join(tmp, "peer.py")
        with open(peer, "w") as f:
            f.write(PEER)
        print(f"whole processes, median of {args.rounds} interleaved rounds, "
              f"{args.splits} splits, nodeids of split 1")
        for n in [int(s) for s in args.sizes.split(",") if s]:
            path = os.path.join(tmp, f"d{n}.json")
            write_durations(path, n)
            mine, theirs = [], []
            for _ in range(args.rounds):
                mine.append(seconds([args.testmap, "plan", path, "--splits", str(args.splits),
                                     "--format", "nodeids", "--split", "1"]))
                theirs.append(seconds([args.python, peer, path, str(args.splits)]))
            (m, mc), (t, tc) = medians(mine), medians(theirs)
            print(f".test_durations {n:>7} tests: testmap plan {m:6.3f} s ({mc:6.3f} s CPU), "
                  f"pytest-split least_duration {t:6.3f} s ({tc:6.3f} s CPU), "
                  f"pytest-split / testmap {t / m:5.1f}x ({tc / mc:5.1f}x CPU)")
        for n in [int(s) for s in args.junit.split(",") if s]:
            path = os.path.join(tmp, f"j{n}.xml")
            write_junit(path, n)
            runs = [seconds([args.testmap, "plan", path, "--splits", str(args.splits),
                             "--format", "nodeids", "--split", "1"]) for _ in range(args.rounds)]
            w, c = medians(runs)
            print(f"JUnit (one line)  {n:>7} tests: testmap plan {w:6.3f} s ({c:6.3f} s CPU)")


if __name__ == "__main__":
    main()
