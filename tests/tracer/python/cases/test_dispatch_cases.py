"""Dispatch situations the tracer must record like a TorchDispatchMode.

Run traced by test_dispatch_cases_traced.py (both recorders); each test
names the op it is about in its docstring-free body.
"""

import threading

import torch


def test_inplace_and_out_variants():
    x = torch.ones(4, dtype=torch.float64)
    x.add_(1)
    out = torch.empty(4, dtype=torch.float64)
    torch.mul(x, x, out=out)


def test_factory_ops_without_tensor_inputs():
    torch.zeros(3, dtype=torch.bfloat16)
    torch.arange(5)
    torch.full((2,), 7, dtype=torch.int32)


def test_no_grad_and_inference_mode():
    w = torch.randn(3, 3, requires_grad=True)
    with torch.no_grad():
        w.mul_(2)
    with torch.inference_mode():
        torch.nn.functional.linear(torch.randn(2, 3), torch.randn(4, 3))


def test_backward_on_the_autograd_engine():
    x = torch.randn(5, requires_grad=True)
    (x.sigmoid() * 3).sum().backward()
    assert x.grad is not None


def test_backward_started_on_another_thread():
    x = torch.randn(5, requires_grad=True)
    y = (x.sigmoid() * 3).sum()
    errors = []

    def run():
        try:
            y.backward()
        except Exception as e:  # surfaced below
            errors.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert not errors and x.grad is not None


def test_wrapped_numbers_and_mixed_dtypes():
    a = torch.ones(3, dtype=torch.int32)
    b = a + 2.5
    torch.where(b > 1, b, torch.zeros(3, dtype=torch.float64))


def test_devices_are_kept_apart():
    # The meta device stands in for an accelerator: its calls are recorded
    # under `meta`, the CPU reference computation under `cpu`, and a call
    # mixing a CPU scalar tensor with a device tensor under the device.
    d = torch.ones(3, device="meta")
    d.add_(1)
    torch.ones(3).add_(1)
    d.mul(torch.tensor(2.0))
