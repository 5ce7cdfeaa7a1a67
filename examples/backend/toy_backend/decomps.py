"""Decompositions the toy device registers for aten operators, through a
Library and a decorator factory of its own, some inside a loop."""

import torch

_lib = torch.library.Library("aten", "IMPL", "PrivateUse1")


def toy_impl(name):
    def register(fn):
        _lib.impl(name, fn)
        return fn

    return register


@toy_impl("sigmoid")
def _sigmoid(x):
    return 1 / (1 + (-x).exp())


@toy_impl("rsqrt")
def _rsqrt(x):
    return x.sqrt().reciprocal()


def _unary_on_cpu(name):
    op = getattr(torch.ops.aten, name).default
    return lambda x: op(x.cpu()).to(x.device)


for _name in ("log", "log2", "sqrt"):
    _lib.impl(_name, _unary_on_cpu(_name))
