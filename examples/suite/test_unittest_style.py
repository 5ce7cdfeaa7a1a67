"""Plain unittest-style classes, without device or parametrized instantiation.

Idioms exercised:
  * plain ``unittest.TestCase`` classes with setUp / setUpClass;
  * torch's ``TestCase`` (common_utils) used directly, no instantiation;
  * a unittest class inheriting tests from another unittest class (both are
    collected; the subclass re-runs the inherited tests under its own name
    and can override one);
  * a camelCase ``testSomething`` method (unittest's "test" prefix);
  * helper methods that don't start with "test" are not collected;
  * a unittest class whose name does not start with "Test"
    (``CloneSemanticsTest``): pytest collects every unittest.TestCase
    subclass in the module namespace regardless of its name;
  * the ``__main__`` block uses unittest.main(), because torch's run_tests()
    rejects classes that don't derive from common_utils.TestCase.
"""

import unittest

import torch
from torch.testing._internal.common_utils import TestCase


class TestTensorBasics(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = torch.arange(12.0).reshape(3, 4)

    def setUp(self):
        self.x = self.base.clone()

    def _expected_row_sums(self):
        return torch.tensor([6.0, 22.0, 38.0])

    def test_sum_rows(self):
        self.assertTrue(torch.equal(self.x.sum(dim=1), self._expected_row_sums()))

    def test_view_and_reshape(self):
        self.assertEqual(self.x.view(4, 3).shape, torch.Size([4, 3]))
        self.assertEqual(self.x.t().reshape(12).shape, torch.Size([12]))

    def testIndexSelect(self):
        out = torch.index_select(self.x, 0, torch.tensor([0, 2]))
        self.assertEqual(out.shape, torch.Size([2, 4]))


class TestCatBase(unittest.TestCase):
    dim = 0

    def make_inputs(self):
        return torch.ones(2, 3), torch.zeros(2, 3)

    def test_cat_shape(self):
        a, b = self.make_inputs()
        out = torch.cat([a, b], dim=self.dim)
        self.assertEqual(out.shape[self.dim], 4)

    def test_stack_shape(self):
        a, b = self.make_inputs()
        self.assertEqual(torch.stack([a, b], dim=self.dim).shape[self.dim], 2)


class TestCatLastDim(TestCatBase):
    dim = -1

    def test_cat_shape(self):
        a, b = self.make_inputs()
        out = torch.cat([a, b], dim=self.dim)
        self.assertEqual(out.shape, torch.Size([2, 6]))

    def test_split_roundtrip(self):
        a, b = self.make_inputs()
        out = torch.cat([a, b], dim=self.dim)
        first, second = torch.split(out, 3, dim=self.dim)
        self.assertTrue(torch.equal(first, a))
        self.assertTrue(torch.equal(second, b))


class CloneSemanticsTest(unittest.TestCase):
    def test_clone_is_a_copy(self):
        x = torch.zeros(3)
        y = x.clone()
        y[0] = 1.0
        self.assertEqual(x[0].item(), 0.0)

    def test_detach_shares_storage(self):
        x = torch.zeros(3, requires_grad=True)
        y = x.detach()
        self.assertEqual(y.data_ptr(), x.data_ptr())


class TestLinalgBasics(TestCase):
    def test_matmul_identity(self):
        a = torch.randn(5, 5, dtype=torch.float64)
        self.assertEqual(a @ torch.eye(5, dtype=torch.float64), a)

    def test_solve(self):
        a = torch.tensor([[3.0, 1.0], [1.0, 2.0]], dtype=torch.float64)
        b = torch.tensor([9.0, 8.0], dtype=torch.float64)
        self.assertEqual(torch.linalg.solve(a, b), torch.tensor([2.0, 3.0], dtype=torch.float64))

    def test_norm(self):
        self.assertEqual(torch.linalg.vector_norm(torch.tensor([3.0, 4.0])), torch.tensor(5.0))


if __name__ == "__main__":
    # torch's run_tests() refuses to run classes that don't derive from
    # common_utils.TestCase, so this file uses the plain unittest runner.
    unittest.main()
