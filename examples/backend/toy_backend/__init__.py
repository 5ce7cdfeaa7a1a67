"""toy_backend: a PrivateUse1 backend named "toy", written in the idioms real
out-of-tree backends use, for testmap's backend scan (see ../README.md).

Importing it loads the C++ registrations (libtoy_backend.so), renames
PrivateUse1 to "toy" and imports the Python registrations.
"""

import os

import torch

from . import _device

_LIBRARY_DIR = os.environ.get(
    "TOY_BACKEND_LIB_DIR",
    os.path.join(os.path.dirname(__file__), "..", "..", "..", "build", "lib"))

torch.ops.load_library(os.path.join(_LIBRARY_DIR, "libtoy_backend.so"))

torch.utils.rename_privateuse1_backend("toy")
torch._register_device_module("toy", _device)
torch.utils.generate_methods_for_privateuse1_backend(for_storage=True)

from . import custom, decomps, fallbacks, kernels  # noqa: E402,F401  (they register on import)
