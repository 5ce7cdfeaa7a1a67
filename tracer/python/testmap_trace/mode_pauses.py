"""Pausing the C++ recorder wherever torch hides calls from a
TorchDispatchMode, so that it records exactly what a mode would see.

Two places matter in practice:

1. torch.compile.
torch.compile runs its tracing (FakeTensor propagation on `meta`, AOT
autograd, Inductor's passes) inside
torch.utils._python_dispatch._disable_current_modes(), which is how a
TorchDispatchMode whose ignore_compile_internals() is true sees only the
compiled artifact's calls. The C++ recorder is not on the mode stack, so the
plugin wraps that one function: the recorder then pauses at exactly the
same places, including ones reached later (lazy backward compilation,
constant folding).

2. Tensor._make_subclass (every nn.Parameter): its C++ side runs
`data.detach()` under StashTorchDispatchStackGuard, which turns modes off
completely. Nothing in the dispatcher shows that guard to a fallback, so
the plugin pauses the recorder around the Python entry point.
"""

from __future__ import annotations

import contextlib
import functools
import sys

_installed = False


def install(recorder) -> None:
    global _installed
    if _installed:
        return
    import torch
    import torch.utils._python_dispatch as python_dispatch

    original = python_dispatch._disable_current_modes

    @contextlib.contextmanager
    def _disable_current_modes_and_recorder():
        recorder.suspend(True)
        try:
            with original() as result:
                yield result
        finally:
            recorder.suspend(False)

    python_dispatch._disable_current_modes = _disable_current_modes_and_recorder
    # Modules that already did `from torch.utils._python_dispatch import
    # _disable_current_modes` hold the original; modules imported later get
    # the wrapper from the module attribute.
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("torch") and (
            getattr(module, "_disable_current_modes", None) is original
        ):
            module._disable_current_modes = _disable_current_modes_and_recorder
    original_make_subclass = torch.Tensor._make_subclass

    # functools.wraps: torch checks that overrides keep the signature.
    @functools.wraps(original_make_subclass)
    def _make_subclass(cls, *args, **kwargs):
        recorder.suspend(True)
        try:
            return original_make_subclass(cls, *args, **kwargs)
        finally:
            recorder.suspend(False)

    torch.Tensor._make_subclass = staticmethod(_make_subclass)
    _installed = True
