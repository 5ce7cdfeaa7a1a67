"""A decorator factory used inside a loop, a Library fallback, and names
exported through `from .decorators import *`."""

import torch

_lib = torch.library.Library("aten", "IMPL", "PrivateUse1")
_autograd_lib = torch.library.Library("aten", "IMPL", "AutogradPrivateUse1")


def casedev_impl(name, lib=_lib):
    def register(fn):
        lib.impl(name, fn)
        return fn

    return register


for _op in ("expm1", "log1p"):

    @casedev_impl(_op)
    def _unary(x):
        return x


@casedev_impl("lgamma", lib=_autograd_lib)
def _lgamma(x):
    return x


_autocast = torch.library.Library("_", "IMPL", "AutocastPrivateUse1")
_autocast.fallback(torch.library.fallthrough_kernel)

PUBLIC_NAME = "exported"
