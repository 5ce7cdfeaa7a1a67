"""Dump what testmap needs from an installed torch, as JSON on stdout.

Test files name OpInfos (`@ops(op_db)`), ModuleInfos (`@modules(module_db)`)
and dtype helpers (`all_types_and(torch.half)`) whose values live in torch's
own test machinery. The scanner never imports the scanned tree; instead it
reads this snapshot, taken once per torch installation from the *installed*
torch (not from the tree being scanned) and cached by the scanner.

It also holds the dispatcher's operator registry: every operator overload
with its schema and the dispatch keys torch itself has kernels for. Backend
scans expand packets (`aten.add`) to overloads from it, queries tell a real
operator with no test from a typo, and admission reads which operators are
decomposed (CompositeImplicitAutograd) before they reach a backend.

Usage: python snapshot_torch.py > snapshot.json
"""

import json
import sys

import torch
from torch.testing._internal import common_dtype
from torch.testing._internal import common_methods_invocations as cmi
from torch.testing._internal import common_modules
from torch.testing._internal.opinfo.core import OpInfo

FORMAT = "testmap-torch-snapshot/3"
# Device types whose dtype tables differ in OpInfo/ModuleInfo; any other
# device type (privateuse1 backends included) uses the default table.
DEVICE_TYPES = ("cpu", "cuda", "xpu", "mps", "hpu")
# OpInfo attributes that test files commonly filter op lists on.
OP_FLAGS = (
    "supports_out", "supports_autograd", "supports_forward_ad",
    "supports_fwgrad_bwgrad", "supports_inplace_autograd", "supports_sparse",
    "supports_sparse_csr", "is_factory_function", "supports_varargs",
    "supports_scripting", "supports_tracing", "supports_expanded_weight",
    "supports_njt",
)
# Dispatch keys whose kernels decide how an operator reaches a backend;
# each operator records which of them torch registers a kernel for.
OPERATOR_KERNEL_KEYS = (
    "CompositeImplicitAutograd", "CompositeExplicitAutograd",
    "CompositeExplicitAutogradNonFunctional", "CPU", "CUDA", "Meta",
)


def dtype_name(d):
    return str(d).split(".")[1]


# Every dtype torch has, in a fixed order; dtype sets are bitmasks over it,
# which keeps the snapshot small and fast to load.
ALL_DTYPES = sorted({dtype_name(getattr(torch, n)) for n in dir(torch)
                     if isinstance(getattr(torch, n, None), torch.dtype)})


def dtype_list(ds):
    mask = 0
    for d in ds or ():
        if d is not None:
            mask |= 1 << ALL_DTYPES.index(dtype_name(d))
    return mask


def safe(f):
    try:
        return f()
    except Exception:
        return None


def op_record(op):
    rec = {
        "name": op.name,
        "variant_test_name": op.variant_test_name,
        "formatted_name": op.formatted_name,
        "aten_name": getattr(op, "aten_name", None),
        "dtypes": [dtype_list(safe(lambda: op.supported_dtypes(d))) for d in DEVICE_TYPES],
        "backward_dtypes": [dtype_list(safe(lambda: op.supported_backward_dtypes(d)))
                            for d in DEVICE_TYPES],
        "dtypes_default": dtype_list(op.dtypes),
        "dtypes_if_cuda": dtype_list(op.dtypesIfCUDA),
        "kind": type(op).__name__,
    }
    rec["flags"] = [flag for flag in OP_FLAGS if getattr(op, flag, None) is True]
    return rec


def public_class_name(cls):
    """`torch.nn.Linear` rather than `torch.nn.modules.linear.Linear`."""
    if getattr(torch.nn, cls.__name__, None) is cls:
        return "torch.nn." + cls.__name__
    return cls.__module__ + "." + cls.__qualname__


def module_record(m):
    return {
        "name": m.name,
        "module_cls": public_class_name(m.module_cls),
        "formatted_name": m.formatted_name,
        "train_and_eval_differ": bool(m.train_and_eval_differ),
        "dtypes": [dtype_list(safe(lambda: m.supported_dtypes(d))) for d in DEVICE_TYPES],
    }


def named_lists(module, item_type):
    """Module-level lists/tuples made only of `item_type` (op_db, unary_ufuncs...)."""
    out = {}
    for name, value in vars(module).items():
        if isinstance(value, (list, tuple)) and value and all(
                isinstance(v, item_type) for v in value):
            out[name] = value
    return out


def index_lists(lists, record):
    """Each distinct item once, and every named list as indices into them."""
    items, index, named = [], {}, {}
    for name, values in sorted(lists.items()):
        idx = []
        for v in values:
            if id(v) not in index:
                index[id(v)] = len(items)
                items.append(record(v))
            idx.append(index[id(v)])
        named[name] = idx
    return items, named


def operator_registry():
    """[[`aten::add.Tensor`, schema, kernel key bitmask], ...] sorted by name."""
    schemas = {}
    for schema in torch._C._jit_get_all_schemas():
        name = schema.name + ("." + schema.overload_name if schema.overload_name else "")
        schemas[name] = str(schema)
    out = []
    for name in sorted(torch._C._dispatch_get_all_op_names()):
        mask = 0
        for i, key in enumerate(OPERATOR_KERNEL_KEYS):
            if torch._C._dispatch_has_kernel_for_dispatch_key(name, key):
                mask |= 1 << i
        out.append([name, schemas.get(name, ""), mask])
    return out


def main():
    ops, op_lists = index_lists(named_lists(cmi, OpInfo), op_record)
    modules, module_lists = index_lists(
        named_lists(common_modules, common_modules.ModuleInfo), module_record)

    # Zero-argument dtype helpers: their values. The `*_and(*dtypes)` helpers
    # are the same base list plus their arguments; the scanner derives them.
    helpers = {}
    for name in dir(common_dtype):
        f = getattr(common_dtype, name)
        if name.startswith("_") or not callable(f) or isinstance(f, type):
            continue
        v = safe(f)
        if isinstance(v, (list, tuple)) and all(isinstance(d, torch.dtype) for d in v):
            helpers[name] = [dtype_name(d) for d in v]

    aliases = {name: dtype_name(getattr(torch, name)) for name in dir(torch)
               if isinstance(getattr(torch, name, None), torch.dtype)}

    from torch.testing._internal.common_device_type import ANY_DTYPE_ORDER
    json.dump({
        "format": FORMAT,
        "torch_version": torch.__version__,
        "torch_git_version": getattr(torch.version, "git_version", ""),
        "python": sys.version.split()[0],
        "dtype_names": ALL_DTYPES,
        "device_types": list(DEVICE_TYPES),
        "op_flags": list(OP_FLAGS),
        "dtype_aliases": aliases,
        "dtype_helpers": helpers,
        "all_dtypes": [dtype_name(d) for d in common_dtype.get_all_dtypes()],
        "any_dtype_order": [dtype_name(d) for d in ANY_DTYPE_ORDER],
        "op_lists": op_lists,
        "ops": ops,
        "module_lists": module_lists,
        "modules": modules,
        "operator_kernel_keys": list(OPERATOR_KERNEL_KEYS),
        "operators": operator_registry(),
    }, sys.stdout, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
