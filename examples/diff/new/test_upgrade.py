"""The new side of a suite pair for `testmap diff` (docs/diff.md): the same
file in ../old/ differs from this one by every kind of change the diff
tells apart; tests/mapper/diff/diff_examples_test.cc states the delta.

Idioms: instantiate_device_type_tests with @dtypes, @parametrize over a
module-level list, @ops over OpInfos picked from op_db, setUp and helper
methods of a unittest class, a pytest-style parametrized function.
"""

import pytest
import torch
from torch.testing._internal.common_device_type import (
    dtypes,
    instantiate_device_type_tests,
    ops,
)
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.common_utils import parametrize, run_tests, TestCase


SIZES = [1, 4, 8]  # a new size: test_sizes gains an id, its source unchanged
arith_ops = [op for op in op_db if op.name in ("add", "mul")]


class TestArith(TestCase):
    def test_body_changes(self, device):
        x = torch.ones(3, device=device)
        self.assertEqual((x * 2).sum().item(), 6.0)

    # Only formatting and comments differ from the old side: not a change.
    @dtypes(
        torch.float32
    )
    def test_formatting_only(self, device, dtype):

        x = torch.arange(
            4, device=device, dtype=dtype)  # the same call, on two lines

        self.assertEqual(x.neg().abs(),   x)

    @dtypes(torch.float32, torch.float64)
    def test_more_dtypes(self, device, dtype):
        x = torch.full((2,), 3, device=device, dtype=dtype)
        self.assertEqual(x.mul(x).sum().item(), 18)

    @parametrize("n", SIZES)
    def test_sizes(self, device, n):
        self.assertEqual(torch.zeros(n, device=device).numel(), n)

    def test_new_name(self, device):
        x = torch.tensor([1.0, -2.0], device=device)
        self.assertEqual(x.abs().max().item(), 2.0)

    def test_added(self, device):
        self.assertEqual(torch.ones(2, 2, device=device).sum().item(), 4.0)

    @ops(arith_ops, allowed_dtypes=(torch.float32, torch.int64))
    def test_op_entry(self, device, dtype, op):
        sample = next(iter(op.sample_inputs(device, dtype, requires_grad=False)))
        op(sample.input, *sample.args, **sample.kwargs)

    def test_unchanged(self, device):
        self.assertEqual(torch.ones(2, device=device).sub(1).sum().item(), 0.0)


instantiate_device_type_tests(TestArith, globals(), only_for="cpu")


class TestWithSetup(TestCase):
    def setUp(self):
        super().setUp()
        self.base = torch.ones(2).mul(1.0)

    def test_uses_base(self):
        self.assertEqual(self.base.sum().item(), 2.0)


class TestHelpers(TestCase):
    def _make(self):
        return torch.arange(3.0).flip(0)

    def test_uses_helper(self):
        self.assertEqual(self._make().sum().item(), 3.0)

    def test_no_helper(self):
        self.assertEqual(torch.zeros(1).item(), 0.0)


@pytest.mark.parametrize("k", [1, 2])
def test_pytest_style(k):
    assert torch.ones(k).sum().item() == k


if __name__ == "__main__":
    run_tests()
