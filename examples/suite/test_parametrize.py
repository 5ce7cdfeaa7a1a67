"""Device-agnostic parametrized tests (common_utils.parametrize).

Idioms exercised:
  * instantiate_parametrized_tests(cls) as a call after the class body and
    as a class decorator;
  * @parametrize over plain values: ints (including negative), floats (0.5,
    1e-3, 1e-5), strings, bools, None, tuples, dtypes and range(...);
    the default names are ``<arg>_<value>`` with '.' replaced by '_' for
    ints/floats/strings/bools, the bare dtype name for dtypes, and
    ``<arg><index>`` for anything else (None, tuples);
  * the multi-argument form ``"a,b"`` (and ``"a, b"`` with a space);
  * subtest(value, name="...") and subtest(value, decorators=[...]);
  * name_fn as a lambda returning an f-string and as a module-level def;
  * two stacked @parametrize decorators (names composed top to bottom);
  * un-parametrized methods on the same class keep their names.
"""

import unittest

import torch
from torch.testing._internal.common_utils import (
    instantiate_parametrized_tests,
    parametrize,
    run_tests,
    subtest,
    TestCase,
)


def shape_name(rows, cols):
    return f"{rows}x{cols}"


class TestReductionParams(TestCase):
    @parametrize("dim", [None, 0, -1])
    def test_sum_dim(self, dim):
        x = torch.arange(6.0).reshape(2, 3)
        if dim is None:
            self.assertEqual(x.sum(), torch.tensor(15.0))
        else:
            self.assertEqual(x.sum(dim).sum(), torch.tensor(15.0))

    @parametrize("keepdim", [True, False])
    def test_mean_keepdim(self, keepdim):
        x = torch.ones(4, 5)
        out = x.mean(dim=1, keepdim=keepdim)
        self.assertEqual(out.dim(), 2 if keepdim else 1)

    @parametrize("reduction", ["mean", "sum", "none"])
    def test_mse_loss_reduction(self, reduction):
        a = torch.zeros(3)
        b = torch.full((3,), 2.0)
        out = torch.nn.functional.mse_loss(a, b, reduction=reduction)
        expected = {"mean": torch.tensor(4.0), "sum": torch.tensor(12.0), "none": torch.full((3,), 4.0)}
        self.assertEqual(out, expected[reduction])

    @parametrize("p", [0.5, 1e-3, 1e-5])
    def test_dropout_eval_is_identity(self, p):
        x = torch.randn(8, 8)
        self.assertEqual(torch.nn.functional.dropout(x, p=p, training=False), x)

    @parametrize("dtype", [torch.float32, torch.float64, torch.int64])
    def test_cumsum_dtype(self, dtype):
        x = torch.ones(5, dtype=dtype)
        self.assertEqual(torch.cumsum(x, 0), torch.arange(1, 6, dtype=dtype))

    @parametrize("shape", [(2, 3), (4,), ()])
    def test_numel(self, shape):
        x = torch.empty(shape)
        expected = 1
        for s in shape:
            expected *= s
        self.assertEqual(x.numel(), expected)

    @parametrize("n", range(3))
    def test_eye_trace(self, n):
        self.assertEqual(torch.eye(n).trace(), torch.tensor(float(n)))

    def test_plain_method_untouched(self):
        self.assertEqual(torch.zeros(2).sum(), torch.tensor(0.0))


instantiate_parametrized_tests(TestReductionParams)


@instantiate_parametrized_tests
class TestShapeParams(TestCase):
    @parametrize("rows,cols", [(2, 3), (4, 1), (1, 1)])
    def test_zeros_shape(self, rows, cols):
        self.assertEqual(torch.zeros(rows, cols).shape, torch.Size([rows, cols]))

    @parametrize("m, n", [(3, 4), (5, 2)], name_fn=lambda m, n: f"mm_{m}_by_{n}")
    def test_matmul_shape(self, m, n):
        a = torch.randn(m, 7)
        b = torch.randn(7, n)
        self.assertEqual((a @ b).shape, torch.Size([m, n]))

    @parametrize("rows,cols", [(2, 2), (3, 5)], name_fn=shape_name)
    def test_transpose_shape(self, rows, cols):
        self.assertEqual(torch.ones(rows, cols).t().shape, torch.Size([cols, rows]))

    @parametrize("x", [
        subtest(0, name="zero"),
        subtest(-3, name="negative"),
        subtest(7),
        subtest(100, name="large", decorators=[unittest.skip("too slow for the example suite")]),
    ])
    def test_abs(self, x):
        self.assertEqual(torch.tensor(x).abs().item(), abs(x))

    @parametrize("a,b", [
        subtest((1, 2), name="small"),
        subtest((10, 20), name="medium"),
    ])
    def test_add_scalars(self, a, b):
        self.assertEqual(torch.add(torch.tensor(a), b).item(), a + b)

    @parametrize("contiguous", [True, False])
    @parametrize("size", [4, 16])
    def test_clone_layout(self, size, contiguous):
        x = torch.randn(size, size)
        if not contiguous:
            x = x.t()
        y = x.clone()
        self.assertEqual(y, x)
        self.assertEqual(y.is_contiguous(), contiguous)

    @parametrize("op_name", ["relu", "sigmoid"], name_fn=lambda op_name: f"act_{op_name}")
    @parametrize("inplace", [False, True])
    def test_activation_inplace(self, op_name, inplace):
        fn = getattr(torch.nn.functional, op_name)
        x = torch.randn(6)
        expected = fn(x.clone())
        if inplace and op_name == "relu":
            out = fn(x, inplace=True)
            self.assertEqual(out, expected)
        else:
            self.assertEqual(fn(x), expected)


if __name__ == "__main__":
    run_tests()
