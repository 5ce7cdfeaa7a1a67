"""The reference recorder: a plain Python TorchDispatchMode.

It is the ground truth the C++ tracer is checked against and the baseline
its speed is measured against, so it is kept as simple as possible and
applies the same rules, spelled in Python:
  - op: the overload, `aten::add.Tensor`, `aten::mm` for the default;
  - dtypes: distinct dtypes of tensor inputs in argument order; the
    result's when no tensor came in (factory ops);
  - device: the first non-CPU input's device type, else `cpu`; the
    result's for factory ops; None when no tensor is involved at all;
  - role: the role current when the call was made (roles.py).
"""

from __future__ import annotations

import torch
from torch.utils import _pytree as pytree
from torch.utils._python_dispatch import TorchDispatchMode


def _summarize(tensors):
    dtypes, device = [], None
    for t in tensors:
        d = str(t.dtype).split(".", 1)[1]
        if d not in dtypes:
            dtypes.append(d)
        if device is None or (device == "cpu" and t.device.type != "cpu"):
            device = t.device.type
    return tuple(dtypes), device


class _RecordingMode(TorchDispatchMode):
    def __init__(self, table, role="test"):
        super().__init__()
        self.table = table
        self.role = role

    @classmethod
    def ignore_compile_internals(cls):
        # Record the compiled artifact's calls, not torch.compile's tracing.
        return True

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        tensors = [a for a in pytree.tree_leaves((args, kwargs)) if isinstance(a, torch.Tensor)]
        if not tensors:
            tensors = [a for a in pytree.tree_leaves(out) if isinstance(a, torch.Tensor)]
        dtypes, device = _summarize(tensors)
        schema = func._schema
        op = schema.name + ("." + schema.overload_name if schema.overload_name else "")
        key = (op, dtypes, device, self.role)
        self.table[key] = self.table.get(key, 0) + 1
        return out


class PassthroughMode(TorchDispatchMode):
    """Records nothing; its presence alone makes the program take the same
    branches as under the reference recorder (see plugin.py)."""

    @classmethod
    def ignore_compile_internals(cls):
        return True

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


class ReferenceRecorder:
    name = "reference"

    def __init__(self):
        self._table = {}
        self._mode = None
        self._role = "test"

    def start(self) -> None:
        self._table = {}
        self._mode = _RecordingMode(self._table, self._role)
        self._mode.__enter__()

    def stop(self) -> None:
        if self._mode is not None:
            self._mode.__exit__(None, None, None)
            self._mode = None

    def suspend(self, on: bool) -> None:
        pass  # torch itself pauses the mode around compilation

    def set_role(self, role: str) -> None:
        self._role = role
        if self._mode is not None:
            self._mode.role = role

    def take(self) -> list[dict]:
        table, self._table = self._table, {}
        if self._mode is not None:
            self._mode.table = self._table
        records = [
            {"op": op, "dtypes": list(dtypes), "device": device, "role": role, "count": count}
            for (op, dtypes, device, role), count in table.items()
        ]
        records.sort(key=lambda r: (r["op"], r["dtypes"], r["device"] or "", r["role"]))
        return records
