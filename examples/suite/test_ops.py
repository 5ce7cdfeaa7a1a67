"""OpInfo-driven tests in the style of PyTorch's test/test_ops.py.

Idioms exercised:
  * @ops over OpInfos picked out of op_db by a list comprehension on
    ``op.name`` (``in`` and ``==``);
  * ops whose OpInfo has a variant_test_name ("max" has the variants
    reduction_with_dim, reduction_no_dim and binary; "softmax" has
    with_dtype), which appear in test names as ``max_reduction_with_dim``;
  * ops with a dotted name ("nn.functional.relu" -> ``nn_functional_relu``);
  * the default dtype set (every dtype the op supports on the device),
    ``allowed_dtypes=(torch.float32, torch.float64)``, an explicit
    ``dtypes=[...]`` list, ``dtypes=OpDTypes.none`` (no dtype suffix) and
    ``dtypes=OpDTypes.any_one`` (exactly one dtype per op);
  * @parametrize stacked on top of @ops;
  * instantiate_device_type_tests(..., only_for="cpu").
"""

import torch
from torch.testing._internal.common_device_type import (
    instantiate_device_type_tests,
    OpDTypes,
    ops,
)
from torch.testing._internal.common_methods_invocations import op_db
from torch.testing._internal.common_utils import parametrize, run_tests, TestCase


binary_ops = [op for op in op_db if op.name in ("add", "mul", "nn.functional.relu")]
max_ops = [op for op in op_db if op.name == "max"]
softmax_ops = [op for op in op_db if op.name == "softmax"]


class TestCommonOps(TestCase):
    @ops(binary_ops)
    def test_sample_inputs_run(self, device, dtype, op):
        for sample in op.sample_inputs(device, dtype, requires_grad=False):
            result = op(sample.input, *sample.args, **sample.kwargs)
            self.assertEqual(result.device.type, torch.device(device).type)
            break

    @ops(max_ops, allowed_dtypes=(torch.float32, torch.float64))
    def test_max_matches_reference(self, device, dtype, op):
        for sample in op.sample_inputs(device, dtype, requires_grad=False):
            result = op(sample.input, *sample.args, **sample.kwargs)
            values = result[0] if isinstance(result, tuple) else result
            self.assertTrue(torch.isfinite(values).all() or values.numel() == 0)

    @ops(softmax_ops + binary_ops, allowed_dtypes=(torch.float32, torch.float64))
    def test_out_of_place_is_deterministic(self, device, dtype, op):
        samples = list(op.sample_inputs(device, dtype, requires_grad=False))[:3]
        for sample in samples:
            first = op(sample.input, *sample.args, **sample.kwargs)
            second = op(sample.input, *sample.args, **sample.kwargs)
            self.assertEqual(first, second)

    @ops(binary_ops, dtypes=OpDTypes.none)
    def test_op_metadata(self, device, op):
        self.assertTrue(op.supports_out or not op.supports_out)
        self.assertIn(torch.float32, op.supported_dtypes(device))

    @ops(binary_ops + softmax_ops, dtypes=OpDTypes.any_one)
    def test_autograd_smoke(self, device, dtype, op):
        if not op.supports_autograd or not dtype.is_floating_point:
            self.skipTest("op does not support autograd for this dtype")
        sample = next(iter(op.sample_inputs(device, dtype, requires_grad=True)))
        result = op(sample.input, *sample.args, **sample.kwargs)
        result.sum().backward()
        self.assertIsNotNone(sample.input.grad)

    @ops(max_ops, dtypes=[torch.float64])
    def test_gradcheck_max(self, device, dtype, op):
        sample = next(iter(op.sample_inputs(device, dtype, requires_grad=True)))

        def fn(inp):
            result = op(inp, *sample.args, **sample.kwargs)
            return result[0] if isinstance(result, tuple) else result

        self.assertTrue(torch.autograd.gradcheck(fn, (sample.input,)))

    @parametrize("contiguous", [True, False])
    @ops(binary_ops, allowed_dtypes=(torch.float32,))
    def test_noncontiguous(self, device, dtype, op, contiguous):
        sample = next(iter(op.sample_inputs(device, dtype, requires_grad=False)))
        inp = sample.input
        if not contiguous and inp.dim() >= 2:
            inp = inp.transpose(0, 1).contiguous().transpose(0, 1)
        expected = op(sample.input, *sample.args, **sample.kwargs)
        self.assertEqual(op(inp, *sample.args, **sample.kwargs), expected)


instantiate_device_type_tests(TestCommonOps, globals(), only_for="cpu")

if __name__ == "__main__":
    run_tests()
