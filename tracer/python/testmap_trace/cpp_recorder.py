"""The C++ dispatcher recorder (libtestmap_tracer.so), driven through ctypes.

The library is checked against the running torch *before* it is loaded:
a build for another torch can fail to load with an unreadable symbol error
or load and crash on the first call, so the build identity is read from the
file's bytes (marker TESTMAP_TRACER_BUILD=, see tracer/tracer_api.h).
"""

from __future__ import annotations

import ctypes
import json
import os

from . import ROLES

_MARKER = b"TESTMAP_TRACER_BUILD="


class TracerVersionMismatch(RuntimeError):
    """The tracer library was built against a different torch."""


def read_build_info(path: str) -> dict:
    """The torch version, torch git version and testmap version `path` was
    built against, read from the file without loading it."""
    with open(path, "rb") as f:
        data = f.read()
    at = data.find(_MARKER)
    if at < 0:
        raise TracerVersionMismatch(
            f"{path}: not a testmap tracer library (no {_MARKER.decode()} marker)"
        )
    end = data.find(b"\0", at)
    fields = data[at + len(_MARKER) : end].decode("utf-8", "replace").split("\n")
    fields += [""] * (3 - len(fields))
    return {"torch_version": fields[0], "torch_git_version": fields[1], "testmap_version": fields[2]}


def check_compatible(path: str) -> dict:
    """Raises TracerVersionMismatch naming both versions unless `path` was
    built against the torch this process runs."""
    import torch

    built = read_build_info(path)
    running = torch.__version__
    running_git = getattr(torch.version, "git_version", "") or ""
    if built["torch_version"] != running or (
        built["torch_git_version"] and running_git and built["torch_git_version"] != running_git
    ):
        raise TracerVersionMismatch(
            f"{path} was built against torch {built['torch_version']} "
            f"(git {built['torch_git_version'] or '?'}), but this process runs torch {running} "
            f"(git {running_git or '?'}) from {os.path.dirname(torch.__file__)}. "
            "Rebuild the tracer against this torch (cmake -DTESTMAP_PYTHON=<this python>) "
            "or trace with --reference."
        )
    return built


class CppRecorder:
    name = "cpp"

    def __init__(self, path: str):
        import torch

        self.path = os.path.abspath(path)
        self.build_info = check_compatible(self.path)
        torch.ops.load_library(self.path)  # registers the dispatcher kernels
        lib = ctypes.CDLL(self.path)
        lib.testmap_tracer_take.restype = ctypes.c_void_p
        lib.testmap_tracer_free.argtypes = [ctypes.c_void_p]
        lib.testmap_tracer_enable.argtypes = [ctypes.c_int]
        lib.testmap_tracer_suspend.argtypes = [ctypes.c_int]
        lib.testmap_tracer_set_role.argtypes = [ctypes.c_int]
        lib.testmap_tracer_set_role.restype = ctypes.c_int
        lib.testmap_tracer_note_fatal_signals.argtypes = [ctypes.c_char_p]
        lib.testmap_tracer_note_fatal_signals.restype = ctypes.c_int
        self._lib = lib
        self._role_index = {name: i for i, name in enumerate(ROLES)}

    def start(self) -> None:
        self.take()  # drop anything recorded between tests
        self._lib.testmap_tracer_enable(1)

    def stop(self) -> None:
        self._lib.testmap_tracer_enable(0)

    def suspend(self, on: bool) -> None:
        self._lib.testmap_tracer_suspend(1 if on else 0)

    def note_fatal_signals(self, path: str) -> None:
        """A fatal signal writes its number to `path` first (tracer_api.h)."""
        self._lib.testmap_tracer_note_fatal_signals(os.fsencode(os.path.abspath(path)))

    def set_role(self, role: str) -> None:
        self._lib.testmap_tracer_set_role(self._role_index[role])

    def take(self) -> list[dict]:
        ptr = self._lib.testmap_tracer_take()
        try:
            return json.loads(ctypes.cast(ptr, ctypes.c_char_p).value)
        finally:
            self._lib.testmap_tracer_free(ptr)
