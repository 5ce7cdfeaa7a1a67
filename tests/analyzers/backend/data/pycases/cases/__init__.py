"""Python registration idioms for the Python reader's test, beside the toy
backend's: each module registers on import; python_reader_test.cc compares
what the scan reads here with what the dispatcher holds after the import."""

import torch

torch.utils.rename_privateuse1_backend("casedev")

from . import custom, helpers, listed  # noqa: E402,F401
from .decorators import *  # noqa: E402,F401,F403
