"""Operators the toy device runs on the CPU, listed by packet or overload and
registered by one helper. The helper skips out= overloads: their schema
marks them (`any(a.is_out for a in schema.arguments)`)."""

import torch

aten = torch.ops.aten

CPU_FALLBACK_OPS = [
    aten.floor,
    aten.ceil,
    torch.ops.aten.round.default,
    aten.trunc,
    aten.sign.default,
]

_lib = torch.library.Library("aten", "IMPL", "PrivateUse1")


def _on_cpu(op):
    def kernel(*args, **kwargs):
        device = next(a.device for a in args if isinstance(a, torch.Tensor))
        cpu_args = [a.cpu() if isinstance(a, torch.Tensor) else a for a in args]
        return op(*cpu_args, **kwargs).to(device)

    return kernel


def register_cpu_fallbacks(ops):
    for packet in ops:
        if isinstance(packet, torch._ops.OpOverload):
            overloads = [packet]
        else:
            overloads = [getattr(packet, name) for name in packet.overloads()]
        for op in overloads:
            if any(a.is_out for a in op._schema.arguments):
                continue
            _lib.impl(op, _on_cpu(op), "PrivateUse1")


register_cpu_fallbacks(CPU_FALLBACK_OPS)
