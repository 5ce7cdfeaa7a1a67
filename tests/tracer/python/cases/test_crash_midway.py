"""A suite whose middle test takes its process down with os.abort().

Harmless unless TESTMAP_CRASH_TEST=1 (then test_2 aborts).
"""

import os

import torch


def test_1_before():
    torch.ones(3).add_(1)


def test_2_abort():
    torch.zeros(2).mul_(3)
    if os.environ.get("TESTMAP_CRASH_TEST") == "1":
        os.abort()


def test_3_after():
    torch.arange(4).sum()
