"""@dtypes from torch's legacy dtype helpers and expressions over them, in
the style of PyTorch's test_scatter_gather_ops.py, test_binary_ufuncs.py,
test_reductions.py and nn/test_embedding.py.

Idioms exercised:
  * get_all_dtypes(include_half=True, include_bfloat16=True,
    include_bool=False) and get_all_math_dtypes("cpu");
  * set arithmetic: ``*set(all_types_and(torch.half)) - {torch.uint8}``;
  * a conditional on a common_utils flag: ``*((a, b) if TEST_WITH_ROCM
    else (c,))``;
  * ``*tuple(itertools.combinations_with_replacement(..., 2))``: dtype pairs;
  * ``*list(product(...))`` and ``*(floating_types_and(...))``.
"""

import itertools
from itertools import product

import torch
from torch.testing._internal.common_device_type import dtypes, instantiate_device_type_tests
from torch.testing._internal.common_dtype import (
    all_types_and,
    floating_types_and,
    get_all_dtypes,
    get_all_math_dtypes,
)
from torch.testing._internal.common_utils import run_tests, TEST_WITH_ROCM, TestCase


class TestDtypeHelpers(TestCase):
    @dtypes(*get_all_dtypes(include_half=True, include_bfloat16=True, include_bool=False))
    def test_all_but_bool(self, device, dtype):
        self.assertNotEqual(dtype, torch.bool)

    @dtypes(*get_all_math_dtypes("cpu"))
    def test_math(self, device, dtype):
        self.assertEqual(torch.zeros(1, dtype=dtype, device=device).dtype, dtype)

    @dtypes(*set(all_types_and(torch.half)) - {torch.uint8})
    def test_set_difference(self, device, dtype):
        self.assertNotEqual(dtype, torch.uint8)

    @dtypes(*set(get_all_math_dtypes("cpu")) - {torch.complex64, torch.complex128})
    def test_real_math(self, device, dtype):
        self.assertFalse(dtype.is_complex)

    @dtypes(*((torch.float, torch.double, torch.half) if TEST_WITH_ROCM else (torch.float, torch.half)))
    def test_rocm_conditional(self, device, dtype):
        self.assertTrue(dtype.is_floating_point)

    @dtypes(*tuple(itertools.combinations_with_replacement((torch.int8, torch.float32, torch.bool), 2)))
    def test_pairs(self, device, dtypes):
        self.assertEqual(len(dtypes), 2)

    @dtypes(*list(product((torch.float32, torch.int64), (torch.float64,))))
    def test_product(self, device, dtypes):
        self.assertEqual(dtypes[1], torch.float64)

    @dtypes(*(floating_types_and(torch.bfloat16)))
    def test_parenthesized(self, device, dtype):
        self.assertTrue(dtype.is_floating_point)


instantiate_device_type_tests(TestDtypeHelpers, globals(), only_for="cpu")

if __name__ == "__main__":
    run_tests()
