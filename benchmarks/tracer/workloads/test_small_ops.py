"""Small-op micro workload: the case where per-op tracing cost shows most
(tiny tensors, Python-speed dispatch). The loop's own time is written to
$TESTMAP_BENCH_RESULT so the benchmark can separate it from startup."""

import os
import time

import torch

ITERATIONS = int(os.environ.get("TESTMAP_BENCH_ITERATIONS", "20000"))


def test_small_ops_loop():
    x = torch.randn(16)
    w = torch.randn(16, 16)
    start = time.perf_counter()
    for _ in range(ITERATIONS):
        y = x + 1.0
        y = y * x
        y.relu_()
        y = torch.mv(w, y)
        y.sum()
    elapsed = time.perf_counter() - start
    path = os.environ.get("TESTMAP_BENCH_RESULT")
    if path:
        with open(path, "w") as f:
            f.write(str(elapsed))
