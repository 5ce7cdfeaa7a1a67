"""Run metadata: enough to reproduce a trace run weeks later."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess
import sys

from . import __version__

# Environment variables that change which tests run or what they dispatch.
_RELEVANT_ENV = (
    "TORCH_LOGS", "TORCH_LOGS_FORMAT", "PYTORCH_TESTING_DEVICE_ONLY_FOR",
    "PYTORCH_TESTING_DEVICE_EXCEPT_FOR", "PYTORCH_TEST_WITH_SLOW", "CUDA_VISIBLE_DEVICES",
    "OMP_NUM_THREADS", "TESTMAP_COMMAND",
)


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _git_sha(path: str) -> str | None:
    try:
        out = subprocess.run(
            ["git", "-C", path, "rev-parse", "HEAD"], capture_output=True, text=True, timeout=5
        )
        return out.stdout.strip() or None
    except (OSError, subprocess.SubprocessError):
        return None


def collect(rootdir: str, recorder: str, extra: dict | None = None, start: float | None = None) -> dict:
    """`start`: when the run began (epoch seconds; now when None)."""
    import torch

    began = datetime.datetime.now(datetime.timezone.utc) if start is None else \
        datetime.datetime.fromtimestamp(start, datetime.timezone.utc)
    meta = {
        "start_time": began.isoformat(),
        "testmap_version": os.environ.get("TESTMAP_VERSION", __version__),
        "recorder": recorder,
        "command": os.environ.get("TESTMAP_COMMAND") or " ".join(sys.argv),
        "argv": sys.argv,
        "cwd": os.getcwd(),
        "rootdir": rootdir,
        "tests_git_sha": _git_sha(rootdir),
        "torch": {
            "version": torch.__version__,
            "git_version": getattr(torch.version, "git_version", None),
            "cuda": torch.version.cuda,
            "hip": getattr(torch.version, "hip", None),
            "debug": torch.version.debug,
            "path": os.path.dirname(torch.__file__),
        },
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation(),
                   "executable": sys.executable},
        "os": {"platform": platform.platform(), "system": platform.system(), "release": platform.release()},
        "cpu": {"model": _cpu_model(), "machine": platform.machine(), "count": os.cpu_count()},
        "hostname": platform.node(),
        "pid": os.getpid(),
        "env": {k: os.environ[k] for k in _RELEVANT_ENV if k in os.environ},
    }
    try:
        import pytest

        meta["pytest_version"] = pytest.__version__
    except ImportError:
        pass
    if extra:
        meta.update(extra)
    return meta
