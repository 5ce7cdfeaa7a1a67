"""Device gating and skip decorators on device-type tests.

Idioms exercised:
  * instantiate_device_type_tests with only_for="cpu", except_for="cuda",
    and only_for="cuda" (the last yields no tests on a CPU-only machine,
    and the generic class is removed from the module either way);
  * @onlyCPU and @onlyCUDA (an @onlyCUDA test is still instantiated for
    the CPU and is skipped when it runs);
  * @skipCPUIf with a true and a false condition, unittest.skipIf and
    unittest.skip (collected, skipped at run time);
  * a generic device class that inherits test methods from a plain mixin
    class: the inherited methods are not device-instantiated and keep their
    plain names on the CPU class (e.g. ``test_default_dtype_is_float32``).
"""

import unittest

import torch
from torch.testing._internal.common_device_type import (
    dtypes,
    instantiate_device_type_tests,
    onlyCPU,
    onlyCUDA,
    skipCPUIf,
)
from torch.testing._internal.common_utils import IS_WINDOWS, run_tests, TestCase


class TensorFactoryChecksMixin:
    """Device-independent checks shared by the factory test classes."""

    def test_default_dtype_is_float32(self):
        self.assertEqual(torch.zeros(2).dtype, torch.float32)

    def test_empty_like_preserves_shape(self):
        x = torch.ones(3, 4)
        self.assertEqual(torch.empty_like(x).shape, x.shape)


class TestTensorFactories(TensorFactoryChecksMixin, TestCase):
    @dtypes(torch.float32, torch.int64)
    def test_full(self, device, dtype):
        x = torch.full((2, 2), 7, device=device, dtype=dtype)
        self.assertEqual(x.sum().item(), 28)

    def test_arange(self, device):
        self.assertEqual(torch.arange(4, device=device).tolist(), [0, 1, 2, 3])

    @onlyCPU
    def test_from_numpy_shares_memory(self, device):
        import numpy as np

        arr = np.zeros(3, dtype=np.float32)
        t = torch.from_numpy(arr)
        t[0] = 5.0
        self.assertEqual(arr[0], 5.0)

    @onlyCUDA
    def test_pinned_memory(self, device):
        x = torch.empty(4).pin_memory()
        self.assertTrue(x.is_pinned())


instantiate_device_type_tests(TestTensorFactories, globals(), only_for="cpu")


class TestDeviceSkips(TestCase):
    @onlyCPU
    @dtypes(torch.float32, torch.float64)
    def test_cpu_only_linspace(self, device, dtype):
        x = torch.linspace(0, 1, 5, device=device, dtype=dtype)
        self.assertEqual(x[-1].item(), 1.0)

    @onlyCUDA
    @dtypes(torch.half)
    def test_cuda_only_half_matmul(self, device, dtype):
        a = torch.randn(4, 4, device=device, dtype=dtype)
        self.assertEqual((a @ a).dtype, dtype)

    @skipCPUIf(True, "not implemented for CPU in this example")
    def test_skipped_on_cpu(self, device):
        raise AssertionError("should have been skipped on CPU")

    @skipCPUIf(False, "never skipped")
    def test_not_skipped_on_cpu(self, device):
        self.assertEqual(torch.ones(2, device=device).sum().item(), 2.0)

    @unittest.skipIf(IS_WINDOWS, "does not run on Windows")
    def test_skip_if_windows(self, device):
        self.assertTrue(torch.ones(1, device=device).bool().all())

    @unittest.skipIf(not torch.cuda.is_available(), "requires CUDA")
    def test_copy_to_cuda(self, device):
        x = torch.ones(2, device=device)
        self.assertEqual(x.to("cuda").cpu(), x)

    @unittest.skip("known flaky; disabled in the example suite")
    def test_disabled(self, device):
        raise AssertionError("disabled test ran")


instantiate_device_type_tests(TestDeviceSkips, globals(), except_for="cuda")


class TestCudaKernels(TestCase):
    @dtypes(torch.float32)
    def test_cuda_stream_sync(self, device, dtype):
        torch.cuda.synchronize(device)

    def test_cuda_device_count(self, device):
        self.assertGreater(torch.cuda.device_count(), 0)


instantiate_device_type_tests(TestCudaKernels, globals(), only_for="cuda")


if __name__ == "__main__":
    run_tests()
