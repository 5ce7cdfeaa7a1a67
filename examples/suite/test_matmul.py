"""Matrix multiplication: float8 scaled matmul and autograd on the CPU.

Idioms exercised:
  * torch._scaled_mm with torch.float8_e4m3fn inputs and float32 scale
    tensors (tensor-wise and row-wise scales, optional bias, several
    out_dtypes), all of which run on the CPU in torch 2.13;
  * @dtypes over the *output* dtype, @dtypes with tuples of float8 input
    dtypes (``_float8_e4m3fn_float8_e5m2`` suffixes);
  * @parametrize combined with @dtypes on a device-type test;
  * forward + ``.backward()`` through nn.functional.linear and torch.matmul,
    checked against analytic gradients, plus a gradcheck;
  * instantiate_device_type_tests(..., only_for="cpu") for the float8 class
    and plain instantiate_device_type_tests for the autograd class.
"""

import torch
import torch.nn.functional as F
from torch.testing._internal.common_device_type import (
    dtypes,
    instantiate_device_type_tests,
    onlyCPU,
)
from torch.testing._internal.common_utils import parametrize, run_tests, TestCase


def to_fp8(x, fp8_dtype=torch.float8_e4m3fn):
    """Quantize a float tensor to float8, returning the data and its scale."""
    amax = x.abs().max().clamp(min=1e-12)
    scale = torch.finfo(fp8_dtype).max / amax
    data = (x * scale).clamp(torch.finfo(fp8_dtype).min, torch.finfo(fp8_dtype).max).to(fp8_dtype)
    return data, scale.reciprocal().to(torch.float32)


def reference_scaled_mm(a, b, scale_a, scale_b, bias=None):
    out = (a.to(torch.float32) * scale_a) @ (b.to(torch.float32) * scale_b)
    if bias is not None:
        out = out + bias.to(torch.float32)
    return out


class TestScaledMM(TestCase):
    @dtypes(torch.float32, torch.bfloat16, torch.float16)
    def test_scaled_mm_tensorwise(self, device, dtype):
        x = torch.randn(16, 32, device=device)
        w = torch.randn(16, 32, device=device)
        a, scale_a = to_fp8(x)
        b, scale_b = to_fp8(w)
        b = b.t()
        out = torch._scaled_mm(a, b, scale_a=scale_a, scale_b=scale_b, out_dtype=dtype)
        self.assertEqual(out.dtype, dtype)
        expected = reference_scaled_mm(a, b, scale_a, scale_b)
        self.assertEqual(out, expected.to(dtype), atol=1e-2, rtol=1e-2)

    @parametrize("scale_a_value,scale_b_value", [(1.0, 1.0), (2.0, 0.5)])
    @dtypes(torch.float32)
    def test_scaled_mm_scale_values(self, device, dtype, scale_a_value, scale_b_value):
        a = torch.randn(16, 16, device=device).to(torch.float8_e4m3fn)
        b = torch.randn(16, 16, device=device).to(torch.float8_e4m3fn).t()
        scale_a = torch.tensor(scale_a_value, device=device)
        scale_b = torch.tensor(scale_b_value, device=device)
        out = torch._scaled_mm(a, b, scale_a=scale_a, scale_b=scale_b, out_dtype=dtype)
        self.assertEqual(out, reference_scaled_mm(a, b, scale_a, scale_b), atol=1e-4, rtol=1e-4)

    @onlyCPU
    @dtypes(torch.float32, torch.bfloat16)
    def test_scaled_mm_rowwise(self, device, dtype):
        a = torch.randn(32, 64, device=device).to(torch.float8_e4m3fn)
        b = torch.randn(16, 64, device=device).to(torch.float8_e4m3fn).t()
        scale_a = torch.rand(32, 1, device=device, dtype=torch.float32) + 0.5
        scale_b = torch.rand(1, 16, device=device, dtype=torch.float32) + 0.5
        out = torch._scaled_mm(a, b, scale_a=scale_a, scale_b=scale_b, out_dtype=dtype)
        expected = reference_scaled_mm(a, b, scale_a, scale_b)
        self.assertEqual(out, expected.to(dtype), atol=1e-2, rtol=1e-2)

    @dtypes(torch.bfloat16)
    def test_scaled_mm_bias(self, device, dtype):
        a = torch.randn(16, 32, device=device).to(torch.float8_e4m3fn)
        b = torch.randn(16, 32, device=device).to(torch.float8_e4m3fn).t()
        bias = torch.randn(16, device=device, dtype=dtype)
        one = torch.tensor(1.0, device=device)
        out = torch._scaled_mm(a, b, scale_a=one, scale_b=one, bias=bias, out_dtype=dtype)
        expected = reference_scaled_mm(a, b, one, one, bias=bias)
        self.assertEqual(out, expected.to(dtype), atol=5e-2, rtol=1e-2)

    @dtypes((torch.float8_e4m3fn, torch.float8_e4m3fn), (torch.float8_e4m3fn, torch.float8_e5m2))
    def test_scaled_mm_input_dtypes(self, device, dtypes):
        a_dtype, b_dtype = dtypes
        a = torch.randn(16, 32, device=device).to(a_dtype)
        b = torch.randn(16, 32, device=device).to(b_dtype).t()
        one = torch.tensor(1.0, device=device)
        out = torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.float32)
        self.assertEqual(out, reference_scaled_mm(a, b, one, one), atol=1e-4, rtol=1e-4)

    def test_scaled_mm_fp8_output(self, device):
        a = torch.randn(16, 16, device=device).to(torch.float8_e4m3fn)
        b = torch.eye(16, device=device).to(torch.float8_e4m3fn).t()
        one = torch.tensor(1.0, device=device)
        out = torch._scaled_mm(a, b, scale_a=one, scale_b=one)
        self.assertEqual(out.dtype, torch.float8_e4m3fn)
        self.assertEqual(out.to(torch.float32), a.to(torch.float32))


instantiate_device_type_tests(TestScaledMM, globals(), only_for="cpu")


class TestMatmulAutograd(TestCase):
    @dtypes(torch.float32, torch.float64)
    def test_linear_backward(self, device, dtype):
        x = torch.randn(4, 8, device=device, dtype=dtype, requires_grad=True)
        weight = torch.randn(3, 8, device=device, dtype=dtype, requires_grad=True)
        bias = torch.randn(3, device=device, dtype=dtype, requires_grad=True)
        out = F.linear(x, weight, bias)
        out.sum().backward()
        ones = torch.ones(4, 3, device=device, dtype=dtype)
        self.assertEqual(x.grad, ones @ weight.detach())
        self.assertEqual(weight.grad, ones.t() @ x.detach())
        self.assertEqual(bias.grad, torch.full((3,), 4.0, device=device, dtype=dtype))

    @dtypes(torch.float32)
    def test_matmul_relu_backward(self, device, dtype):
        a = torch.randn(5, 6, device=device, dtype=dtype, requires_grad=True)
        b = torch.randn(6, 2, device=device, dtype=dtype, requires_grad=True)
        out = torch.relu(torch.matmul(a, b))
        grad_out = torch.randn_like(out)
        out.backward(grad_out)
        mask = (a.detach() @ b.detach() > 0).to(dtype)
        self.assertEqual(a.grad, (grad_out * mask) @ b.detach().t())
        self.assertEqual(b.grad, a.detach().t() @ (grad_out * mask))

    @dtypes(torch.float64)
    def test_bmm_gradcheck(self, device, dtype):
        a = torch.randn(2, 3, 4, device=device, dtype=dtype, requires_grad=True)
        b = torch.randn(2, 4, 5, device=device, dtype=dtype, requires_grad=True)
        self.assertTrue(torch.autograd.gradcheck(torch.bmm, (a, b)))


instantiate_device_type_tests(TestMatmulAutograd, globals())

if __name__ == "__main__":
    run_tests()
