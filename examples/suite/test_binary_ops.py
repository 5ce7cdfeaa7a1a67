"""Binary elementwise ops on the CPU, instantiated per device type.

Idioms exercised:
  * instantiate_device_type_tests(TestBinaryOps, globals()) with no filter
    (TestBinaryOps -> TestBinaryOpsCPU on a CPU-only machine);
  * @dtypes with single dtypes, including aliases (torch.half, torch.long);
  * @dtypes with dtype tuples, which yield a ``_float32_int64`` style suffix
    and pass the ``dtypes`` (plural) argument;
  * @dtypes with splatted helpers from common_dtype (all_types_and,
    floating_types, integral_types, floating_and_complex_types_and);
  * @dtypesIfCPU / @dtypesIfCUDA overriding @dtypes;
  * @parametrize combined with @dtypes (the parametrize suffix goes before
    the device, the dtype suffix after it);
  * an untyped device test (``test_..._cpu`` with no dtype suffix).
"""

import torch
from torch.testing._internal.common_device_type import (
    dtypes,
    dtypesIfCPU,
    dtypesIfCUDA,
    instantiate_device_type_tests,
)
from torch.testing._internal.common_dtype import (
    all_types_and,
    floating_and_complex_types_and,
    floating_types,
    integral_types,
)
from torch.testing._internal.common_utils import parametrize, run_tests, TestCase


class TestBinaryOps(TestCase):
    @dtypes(torch.float32, torch.float64, torch.int64)
    def test_add(self, device, dtype):
        a = torch.arange(6, device=device).to(dtype).reshape(2, 3)
        b = torch.ones(2, 3, device=device, dtype=dtype)
        expected = torch.tensor([[1, 2, 3], [4, 5, 6]], device=device, dtype=dtype)
        self.assertEqual(torch.add(a, b), expected)
        self.assertEqual(a + b, expected)

    @dtypes(*all_types_and(torch.half))
    def test_mul(self, device, dtype):
        a = torch.tensor([1, 2, 3], device=device, dtype=dtype)
        b = torch.tensor([2, 2, 2], device=device, dtype=dtype)
        self.assertEqual(torch.mul(a, b), torch.tensor([2, 4, 6], device=device, dtype=dtype))

    @dtypes(*floating_types())
    def test_div_true_division(self, device, dtype):
        a = torch.tensor([1.0, 3.0, 5.0], device=device, dtype=dtype)
        b = torch.tensor([2.0, 2.0, 2.0], device=device, dtype=dtype)
        self.assertEqual(torch.div(a, b), torch.tensor([0.5, 1.5, 2.5], device=device, dtype=dtype))

    @dtypes(*integral_types())
    def test_floor_divide(self, device, dtype):
        a = torch.tensor([7, 8, 9], device=device, dtype=dtype)
        b = torch.tensor([2, 3, 4], device=device, dtype=dtype)
        self.assertEqual(torch.floor_divide(a, b), torch.tensor([3, 2, 2], device=device, dtype=dtype))
        self.assertEqual(torch.remainder(a, b), torch.tensor([1, 2, 1], device=device, dtype=dtype))

    @dtypes(*floating_and_complex_types_and(torch.bfloat16))
    def test_sub(self, device, dtype):
        a = torch.full((4,), 3, device=device, dtype=dtype)
        b = torch.ones(4, device=device, dtype=dtype)
        self.assertEqual(a - b, torch.full((4,), 2, device=device, dtype=dtype))

    @dtypes((torch.float32, torch.int64), (torch.float64, torch.int32), (torch.half, torch.long))
    def test_type_promotion(self, device, dtypes):
        float_dtype, int_dtype = dtypes
        a = torch.ones(3, device=device, dtype=float_dtype)
        b = torch.ones(3, device=device, dtype=int_dtype)
        result = a + b
        self.assertEqual(result.dtype, float_dtype)
        self.assertEqual(result, torch.full((3,), 2, device=device, dtype=float_dtype))

    @dtypes(torch.float32)
    @dtypesIfCPU(torch.float64, torch.bfloat16)
    def test_maximum(self, device, dtype):
        a = torch.tensor([1.0, 5.0, -2.0], device=device, dtype=dtype)
        b = torch.tensor([3.0, 4.0, -1.0], device=device, dtype=dtype)
        self.assertEqual(torch.maximum(a, b), torch.tensor([3.0, 5.0, -1.0], device=device, dtype=dtype))

    @dtypesIfCUDA(torch.half, torch.float32)
    @dtypes(torch.float32, torch.float64)
    def test_pow(self, device, dtype):
        a = torch.tensor([1.0, 2.0, 3.0], device=device, dtype=dtype)
        self.assertEqual(torch.pow(a, 2), a * a)

    @parametrize("alpha", [1, 2, -1])
    @dtypes(torch.float32, torch.int32)
    def test_add_alpha(self, device, dtype, alpha):
        a = torch.ones(5, device=device, dtype=dtype)
        b = torch.full((5,), 3, device=device, dtype=dtype)
        self.assertEqual(torch.add(a, b, alpha=alpha), a + alpha * b)

    @dtypes(torch.cfloat, torch.cdouble)
    def test_complex_mul(self, device, dtype):
        a = torch.tensor([1 + 1j, 2 - 1j], device=device, dtype=dtype)
        b = torch.tensor([1j, 1j], device=device, dtype=dtype)
        self.assertEqual(a * b, torch.tensor([-1 + 1j, 1 + 2j], device=device, dtype=dtype))

    def test_broadcast_shapes(self, device):
        a = torch.ones(3, 1, device=device)
        b = torch.ones(1, 4, device=device)
        self.assertEqual((a + b).shape, torch.Size([3, 4]))


instantiate_device_type_tests(TestBinaryOps, globals())

if __name__ == "__main__":
    run_tests()
