"""Small-op micro workload: the case where per-op tracing cost shows most
(tiny tensors, Python-speed dispatch).

The loop runs in chunks, alternating (ABBA order, so drift cancels) between
recording on and off when the C++ recorder is active: chunks with it off are the
untraced baseline *in the same process, interleaved at millisecond scale*,
which a loaded machine cannot skew the way it skews separate processes.
Written to $TESTMAP_BENCH_RESULT: the thread's CPU seconds of the chunks with
recording on and off, their wall seconds, and the ops each half ran."""

import json
import os
import time

import torch

ITERATIONS = int(os.environ.get("TESTMAP_BENCH_ITERATIONS", "50000"))
CHUNK = 1000


def loop(x, w, n):
    for _ in range(n):
        y = x + 1.0
        y = y * x
        y.relu_()
        y = torch.mv(w, y)
        y.sum()


def test_small_ops_loop(request):
    plugin = request.config.pluginmanager.get_plugin("testmap-trace")
    recorder = getattr(plugin, "recorder", None)
    # Only the C++ recorder switches off and on cheaply and completely (the
    # reference mode would stack a second mode on the plugin's).
    recorder = recorder if getattr(recorder, "name", None) == "cpp" else None
    x = torch.randn(16)
    w = torch.randn(16, 16)
    cpu = {True: 0.0, False: 0.0}
    wall = {True: 0.0, False: 0.0}
    chunks = max(2, ITERATIONS // CHUNK)
    for i in range(chunks):
        on = (i % 4) in (0, 3)  # on, off, off, on, ...
        if recorder is not None:
            recorder.start() if on else recorder.stop()
        start, start_cpu = time.perf_counter(), time.thread_time()
        loop(x, w, CHUNK)
        cpu[on] += time.thread_time() - start_cpu
        wall[on] += time.perf_counter() - start
    if recorder is not None:
        recorder.start()  # as the plugin left it
    path = os.environ.get("TESTMAP_BENCH_RESULT")
    if path:
        with open(path, "w") as f:
            json.dump({"cpu": cpu[True], "cpu_off": cpu[False], "wall": wall[True], "wall_off": wall[False],
                       "ops": 5 * CHUNK * (chunks // 2)}, f)
