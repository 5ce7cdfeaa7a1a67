"""Helpers the other modules hand operator lists to."""

import torch

LIB = torch.library.Library("aten", "IMPL", "PrivateUse1")

# A switch the reader cannot see into: what it guards is an upper bound.
_ENABLED = dict(floor_divide=True)


def _kernel(op):
    def kernel(*args, **kwargs):
        return op(*[a.cpu() if isinstance(a, torch.Tensor) else a for a in args], **kwargs)

    return kernel


def register_functional(ops):
    """Every tensor overload that neither writes an out= argument nor is
    decomposed by torch before it reaches a backend."""
    for packet in ops:
        for name in packet.overloads():
            op = getattr(packet, name)
            schema = op._schema
            if not schema.arguments or str(schema.arguments[0].type) != "Tensor":
                continue
            if any(a.is_out for a in schema.arguments) or schema.is_mutable:
                continue
            if torch._C._dispatch_has_kernel_for_dispatch_key(op.name(), "CompositeImplicitAutograd"):
                continue
            LIB.impl(op, _kernel(op), "PrivateUse1")


def register_switched(ops):
    for op in ops:
        if _ENABLED.get(str(op), True):
            LIB.impl(op, _kernel(op))
