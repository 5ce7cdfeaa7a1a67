"""Operators the toy backend defines in Python."""

import torch


@torch.library.custom_op("toy::clamp01", mutates_args=(), device_types="toy")
def clamp01(x: torch.Tensor) -> torch.Tensor:
    return x.cpu().clamp(0, 1).to(x.device)


@clamp01.register_fake
def _(x):
    return torch.empty_like(x)


# Defined for every device, then given a CPU kernel of its own.
@torch.library.custom_op("toy::double", mutates_args=())
def double(x: torch.Tensor) -> torch.Tensor:
    return x * 2


@torch.library.register_kernel("toy::double", "cpu")
def _(x):
    return x + x


# A fake (meta) kernel for an operator defined in C++ (csrc/custom_ops.cpp).
@torch.library.register_fake("toy::fill_value_")
def _(self, value):
    return self
