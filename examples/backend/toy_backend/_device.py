"""The `torch.toy` device module torch asks a PrivateUse1 backend for."""

import importlib.machinery
import importlib.util
import os

import torch

_bindings = None


def _C():
    """The pybind11 module, loaded on first use."""
    global _bindings
    if _bindings is None:
        from . import _LIBRARY_DIR
        name = "toy_backend_C"
        path = os.path.join(_LIBRARY_DIR, name + importlib.machinery.EXTENSION_SUFFIXES[0])
        spec = importlib.util.spec_from_file_location(name, path)
        _bindings = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(_bindings)
    return _bindings


def is_available():
    return _C().is_available()


def device_count():
    return _C().device_count()


def current_device():
    return 0


def _is_in_bad_fork():
    return False


def manual_seed_all(seed):
    torch.manual_seed(seed)
