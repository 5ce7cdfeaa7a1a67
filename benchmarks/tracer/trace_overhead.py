"""Tracer overhead: untraced vs C++ tracer vs reference TorchDispatchMode,
in one run, on examples/suite and on a small-op micro workload.

    cmake --build build --target testmap_tracer
    .venv/bin/python benchmarks/tracer/trace_overhead.py \
        --tracer-lib build/lib/libtestmap_tracer.so [--repeat 5]

Each configuration runs in a fresh pytest process, configurations
interleaved per round so that machine noise hits all of them alike; the
median per configuration is reported with its ratio to untraced. Suite
figures are whole-process wall times (what a trace run costs); the micro
figure is the loop's own time (what each dispatched op costs).
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))


def run(config, args, cwd, tracer_lib, result_file=None):
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "tracer", "python"))
    if result_file:
        env["TESTMAP_BENCH_RESULT"] = result_file
    if config != "untraced":
        out = tempfile.mkdtemp(prefix="testmap-bench-")
        cmd += ["-p", "testmap_trace.plugin", "--testmap-out", out,
                "--testmap-recorder", "cpp" if config == "cpp" else "reference"]
        if config == "cpp":
            cmd += ["--testmap-tracer-lib", tracer_lib]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{config} run failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    if result_file:
        with open(result_file) as f:
            return float(f.read())
    return wall


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tracer-lib", required=True)
    parser.add_argument("--repeat", type=int, default=3)
    opts = parser.parse_args()
    opts.tracer_lib = os.path.abspath(opts.tracer_lib)
    configs = ("untraced", "cpp", "reference")
    workloads = {
        "examples/suite (wall s)": (["."], os.path.join(ROOT, "examples", "suite"), False),
        "small-op loop (loop s)": (["test_small_ops.py"], os.path.join(HERE, "workloads"), True),
    }
    results = {w: {c: [] for c in configs} for w in workloads}
    for _ in range(opts.repeat):
        for name, (args, cwd, in_process) in workloads.items():
            for config in configs:
                result_file = tempfile.mktemp() if in_process else None
                results[name][config].append(run(config, args, cwd, opts.tracer_lib, result_file))
    print(f"{'workload':28} {'untraced':>10} {'C++ tracer':>11} {'reference':>10} {'C++/untr':>9} {'ref/untr':>9} {'ref/C++':>8}")
    for name in workloads:
        med = {c: statistics.median(results[name][c]) for c in configs}
        print(f"{name:28} {med['untraced']:10.3f} {med['cpp']:11.3f} {med['reference']:10.3f} "
              f"{med['cpp'] / med['untraced']:9.3f} {med['reference'] / med['untraced']:9.3f} "
              f"{med['reference'] / med['cpp']:8.2f}")
    print(f"(median of {opts.repeat} interleaved runs each; torch {__import__('torch').__version__})")


if __name__ == "__main__":
    main()
