"""A few tiny torch.compile tests using the default inductor backend on CPU.

Idioms exercised:
  * torch.compile(fn) on a fused pointwise function;
  * torch.compile(fn, dynamic=False) on a matmul + relu;
  * @torch.compile(fullgraph=True) used as a decorator on a small softmax;
  * the tests are guarded by inductor_utils.HAS_CPU (a working C++
    compiler) and reset dynamo state in setUp; the class is a plain torch
    TestCase with no device instantiation.
"""

import unittest

import torch
from torch.testing._internal.common_utils import IS_WINDOWS, run_tests, TestCase
from torch.testing._internal.inductor_utils import HAS_CPU


def fused_pointwise(x, y):
    return torch.sigmoid(x) * y + 1.0


def matmul_relu(a, b):
    return torch.relu(a @ b)


@torch.compile(fullgraph=True)
def compiled_scaled_softmax(x, scale):
    return torch.softmax(x * scale, dim=-1)


@unittest.skipIf(IS_WINDOWS, "inductor CPU tests are not run on Windows here")
@unittest.skipIf(not HAS_CPU, "requires a working C++ compiler for inductor")
class TestInductorCPU(TestCase):
    def setUp(self):
        super().setUp()
        torch._dynamo.reset()

    def test_fused_pointwise(self):
        compiled = torch.compile(fused_pointwise)
        x = torch.randn(64)
        y = torch.randn(64)
        self.assertEqual(compiled(x, y), fused_pointwise(x, y))

    def test_matmul_relu_static_shapes(self):
        compiled = torch.compile(matmul_relu, dynamic=False)
        a = torch.randn(8, 16)
        b = torch.randn(16, 4)
        self.assertEqual(compiled(a, b), matmul_relu(a, b))

    def test_fullgraph_softmax(self):
        x = torch.randn(4, 10)
        expected = torch.softmax(x * 0.5, dim=-1)
        self.assertEqual(compiled_scaled_softmax(x, 0.5), expected)


if __name__ == "__main__":
    run_tests()
