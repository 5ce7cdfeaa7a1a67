"""A suite whose middle test takes its process down.

Harmless unless TESTMAP_CRASH_TEST is set: `1` aborts (SIGABRT), `exit`
ends the process with os._exit(1) (no signal, no pytest summary), `segv`
dereferences a null pointer (SIGSEGV).
"""

import ctypes
import os

import torch


def test_1_before():
    torch.ones(3).add_(1)


def test_2_abort():
    torch.zeros(2).mul_(3)
    how = os.environ.get("TESTMAP_CRASH_TEST")
    if how == "1":
        os.abort()
    elif how == "exit":
        os._exit(1)
    elif how == "segv":
        ctypes.string_at(0)


def test_3_after():
    torch.arange(4).sum()
