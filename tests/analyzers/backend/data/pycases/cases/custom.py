"""Operators defined in Python: a Library of its own with a schema and an
autograd formula, and custom ops with and without tensor inputs."""

from typing import List

import torch


def make_library(ns):
    lib = torch.library.Library(ns, "FRAGMENT")
    lib.define("twice(Tensor x) -> Tensor")
    lib.impl("twice", lambda x: x + x, "CompositeExplicitAutograd")
    return lib


_lib = make_library("cases")

torch.library.register_autograd("cases::twice", lambda ctx, grad: grad * 2)


@torch.library.custom_op("cases::scale_", mutates_args=("x",), device_types=["casedev", "cpu"])
def scale_(x: torch.Tensor, factor: float) -> None:
    x.mul_(factor)


@torch.library.custom_op("cases::arange_like", mutates_args=(), device_types="casedev")
def arange_like(n: int, device: torch.device) -> torch.Tensor:
    return torch.arange(n, device=device)


@torch.library.custom_op("cases::join", mutates_args=())
def join(xs: List[torch.Tensor]) -> torch.Tensor:
    return torch.cat(xs)
