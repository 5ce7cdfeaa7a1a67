# Parameter values that are names from torch and standard modules rather
# than literals. pytest names a test by such a value's str() when it is a
# number, by its __name__ when it has one (functions, classes, modules), and
# by the argument's name and position otherwise (memory formats, layouts);
# torch's parametrize by the value only for numbers, strings, dtypes and
# devices. So the scan must know what each name is: the torch snapshot
# records it. `testmap scan` must print what pytest collects
# (tests/analyzers/python/scan_command_test.cc).
import math
import operator
import sys
from math import pi

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch.testing._internal.common_utils import (
    TestCase,
    instantiate_parametrized_tests,
    parametrize,
)


@pytest.mark.parametrize("memory_format", [torch.contiguous_format, torch.channels_last])
def test_memory_format(memory_format):
    pass


@pytest.mark.parametrize("layout", [torch.strided, torch.sparse_coo])
def test_layout(layout):
    pass


@pytest.mark.parametrize("fn", [torch.add, F.relu, operator.mul, abs, np.float32, torch.Tensor])
def test_named(fn):
    pass


@pytest.mark.parametrize("n", [sys.maxsize, math.e, pi / 2, np.pi])
def test_number(n):
    pass


class TestTorchStyle(TestCase):
    @parametrize("memory_format", [torch.contiguous_format, torch.preserve_format])
    def test_memory_format(self, memory_format):
        pass

    @parametrize("fn", [torch.add, F.relu])
    def test_fn(self, fn):
        pass

    @parametrize("n", [sys.maxsize, math.pi])
    def test_number(self, n):
        pass


instantiate_parametrized_tests(TestTorchStyle)
