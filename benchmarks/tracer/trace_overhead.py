"""Tracer overhead: untraced vs C++ tracer vs reference TorchDispatchMode,
in one run, on examples/suite and on a small-op micro workload.

    cmake --build build --target tracer_overhead_bench   # builds and runs it
    .venv/bin/python benchmarks/tracer/trace_overhead.py \\
        --tracer-lib build/lib/libtestmap_tracer.so [--repeat 7] \\
        [--baseline-lib OLD.so --baseline-plugin OLD/tracer/python] \\
        [--breakdown build/lib/libtestmap_tracer_stage{0,1,2}.so]
        [--boxed-lib build/lib/libtestmap_tracer_boxed.so]

Each configuration runs in a fresh pytest process, configurations
interleaved per round so that machine noise hits all of them alike; the
median per configuration is reported with its ratio to untraced. Suite
figures are whole-process wall times (what a trace run costs); the micro
figures are the loop's own time (what each dispatched op costs), as the
thread's CPU time and as wall time; and, steadiest on a loaded machine, the
in-process ratio: the loop's chunks with recording on over its chunks with
recording off, interleaved in the same process (workloads/test_small_ops.py).

--breakdown splits a recorded call's cost with partial builds of the
recorder (tracer/recorded_call.h, TESTMAP_TRACER_STAGE): stage 0 includes
the key as a fallthrough (the key set alone), stage 1 redispatches through
the recorder's kernels (typed for ATen's operators, the boxed fallback for
the rest), stage 2 adds the summary of dtypes and device, the full recorder
adds counting in the thread's table. --boxed-lib adds the full recorder
without the typed per-op kernels (the build testmap_tracer_boxed): every
call boxed, as the recorder was before them.
--baseline-lib compares with another build (an older recorder) in the same
run.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PLUGIN = os.path.join(ROOT, "tracer", "python")


def run(config, args, cwd, result_file=None):
    """config: (name, recorder, lib, plugin dir)."""
    name, recorder, lib, plugin = config
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    env = dict(os.environ, PYTHONPATH=plugin)
    if result_file:
        env["TESTMAP_BENCH_RESULT"] = result_file
    if recorder is not None:
        out = tempfile.mkdtemp(prefix="testmap-bench-")
        cmd += ["-p", "testmap_trace.plugin", f"--testmap-out={out}", f"--testmap-recorder={recorder}"]
        if lib:
            cmd += [f"--testmap-tracer-lib={lib}"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"{name} run failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    if result_file:
        with open(result_file) as f:
            return json.load(f)
    return {"wall": wall}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tracer-lib", required=True)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--baseline-lib", help="another tracer build to compare with")
    parser.add_argument("--baseline-plugin", help="the plugin directory that goes with --baseline-lib")
    parser.add_argument("--breakdown", nargs=3, metavar=("STAGE0_LIB", "STAGE1_LIB", "STAGE2_LIB"))
    parser.add_argument("--boxed-lib", help="the recorder without per-op kernels (every call boxed)")
    parser.add_argument("--iterations", type=int, default=40000, help="of the small-op loop (5 ops each)")
    parser.add_argument("--no-suite", action="store_true", help="only the small-op loop")
    parser.add_argument("--no-reference", action="store_true", help="leave out the (slow) reference")
    opts = parser.parse_args()
    os.environ["TESTMAP_BENCH_ITERATIONS"] = str(opts.iterations)
    lib = os.path.abspath(opts.tracer_lib)
    configs = [("untraced", None, None, PLUGIN), ("C++ tracer", "cpp", lib, PLUGIN)]
    if opts.baseline_lib:
        configs.append(("C++ baseline", "cpp", os.path.abspath(opts.baseline_lib),
                        os.path.abspath(opts.baseline_plugin or PLUGIN)))
    if opts.breakdown:
        configs += [("stage 0: key set", "cpp", os.path.abspath(opts.breakdown[0]), PLUGIN),
                    ("stage 1: +redispatch", "cpp", os.path.abspath(opts.breakdown[1]), PLUGIN),
                    ("stage 2: +summary", "cpp", os.path.abspath(opts.breakdown[2]), PLUGIN)]
    if opts.boxed_lib:
        configs.append(("all boxed", "cpp", os.path.abspath(opts.boxed_lib), PLUGIN))
    if not opts.no_reference:
        configs.append(("reference", "reference", None, PLUGIN))
    workloads = {"small-op loop": (["test_small_ops.py"], os.path.join(HERE, "workloads"), True)}
    if not opts.no_suite:
        workloads["examples/suite"] = (["."], os.path.join(ROOT, "examples", "suite"), False)
    results = {w: {c[0]: [] for c in configs} for w in workloads}
    for _ in range(opts.repeat):
        for name, (args, cwd, in_process) in workloads.items():
            for config in configs:
                result_file = tempfile.mktemp() if in_process else None
                results[name][config[0]].append(run(config, args, cwd, result_file))
    print(f"{'workload':30} {'configuration':20} {'median s':>9} {'x untraced':>10} {'ns/op added':>12}"
          f" {'in-process x':>13}")
    for name, (_, _, in_process) in workloads.items():
        for metric in (("cpu", "wall") if in_process else ("wall",)):
            base = statistics.median(r[metric] for r in results[name]["untraced"])
            ops = results[name]["untraced"][0].get("ops")
            for config in configs:
                runs = results[name][config[0]]
                med = statistics.median(r[metric] for r in runs)
                added = f"{(med - base) / ops * 1e9:12.0f}" if ops else f"{'':12}"
                # Recording on / off in the same process, interleaved chunks.
                inproc = ""
                if in_process and config[1] == "cpp":
                    ratios = sorted(r[metric] / r[metric + "_off"] for r in runs)
                    inproc = (f"{statistics.median(ratios):13.3f}  ({ratios[0]:.3f}-{ratios[-1]:.3f})")
                label = f"{name} ({metric} s)" if in_process else f"{name} (wall s)"
                print(f"{label:30} {config[0]:20} {med:9.3f} {med / base:10.3f} {added} {inproc}")
    print(f"(median of {opts.repeat} interleaved runs each; torch {__import__('torch').__version__}; "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the end; "
          "in-process: the loop's chunks with recording on over those with it off, same process, "
          "median (min-max))")


if __name__ == "__main__":
    main()
