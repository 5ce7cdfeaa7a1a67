"""Dump what testmap needs from an installed torch, as JSON on stdout.

Test files name OpInfos (`@ops(op_db)`, `@ops(custom_op_db)`), ModuleInfos
(`@modules(module_db)`) and dtype helpers (`all_types_and(torch.half)`)
whose values live in torch's own test machinery: the lists of every
torch.testing._internal module, keyed by module and name. The scanner
never imports the scanned tree; instead it
reads this snapshot, taken once per torch installation from the *installed*
torch (not from the tree being scanned) and cached by the scanner.

It also holds the dispatcher's operator registry: every operator overload
with its schema and the dispatch keys torch itself has kernels for. Backend
scans expand packets (`aten.add`) to overloads from it, queries tell a real
operator with no test from a typo, and admission reads which operators are
decomposed (CompositeImplicitAutograd) before they reach a backend.

Filters in test files read more than names: `filter(lambda op: op.ref is
not None, unary_ufuncs)`, `[m for m in module_db if m.supports_gradgrad]`,
`'inplace' in signature(m.module_cls).parameters`, `TEST_WITH_ROCM`,
`get_all_dtypes(include_bool=False)`, `op.ndimensional ==
SpectralFuncType.OneD`. So the snapshot also records every
OpInfo/ModuleInfo instance attribute (plain values and Enum members as
they are, anything else as an opaque object with its truthiness), the Enum
classes torch's test modules bind, each OpInfo's class hierarchy, module
constructors' parameter names, the plain constants and
the public names of torch's test modules, `__all__` of torch._refs and
torch._prims, and the legacy dtype helpers' result for every combination of
their bool (or device) arguments.

Usage: python snapshot_torch.py > snapshot.json
"""

import contextlib
import enum
import functools
import hashlib
import inspect
import itertools
import json
import math
import os
import re
import sys

import torch
from torch.testing._internal import common_dtype
from torch.testing._internal import common_methods_invocations  # noqa: F401 (op_db and the rest)
from torch.testing._internal import common_modules
from torch.testing._internal.opinfo.core import OpInfo

FORMAT = "testmap-torch-snapshot/6"
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


# Enum classes whose members plain() wrote, by qualified name
# (`torch.testing._internal.opinfo.core.SpectralFuncType`).
ENUM_CLASSES = {}


def plain_enum_class(cls):
    """Whether members of `cls` behave as plain Enum members: equal only to
    themselves. int/str/float mixins (IntEnum, StrEnum) compare as their
    values, which plain() records instead."""
    return (isinstance(cls, type) and issubclass(cls, enum.Enum) and len(cls.__members__) > 0
            and not issubclass(cls, (int, str, float)))


def enum_class_name(cls):
    name = "%s.%s" % (cls.__module__, cls.__qualname__)
    ENUM_CLASSES[name] = cls
    return name


def plain(v, depth=0):
    """A Python value the scanner can reason about, in the row code
    torch_snapshot.cc reads: N None, T/F bools, i<int>; f<float>;
    s<utf-8 length>:<text>, d<dtype>;, e<utf-8 length>:<enum class>.<member>
    (a plain Enum member, its class in enum_classes), [...] tuples and lists
    of those; anything else O or o, an opaque object and its truthiness. A
    compact code of its own, not JSON: rows hold ~150k values and loading
    them is on every scan's path."""
    if v is None:
        return "N"
    if isinstance(v, bool):
        return "T" if v else "F"
    if isinstance(v, str):
        return "s%d:%s" % (len(v.encode()), v)
    if isinstance(v, int) and abs(v) < 2**62:
        return "i%d;" % v
    if isinstance(v, float) and math.isfinite(v):
        return "f%r;" % v
    if isinstance(v, torch.dtype):
        return "d%s;" % dtype_name(v)
    if isinstance(v, enum.Enum) and plain_enum_class(type(v)):
        text = "%s.%s" % (enum_class_name(type(v)), v.name)
        return "e%d:%s" % (len(text.encode()), text)
    if isinstance(v, (list, tuple)) and depth < 2 and len(v) <= 64:
        items = [plain(x, depth + 1) for x in v]
        if not any(x in ("O", "o") for x in items):
            return "[" + "".join(items) + "]"
    try:
        return "O" if v else "o"
    except Exception:
        return "O"


def attr_columns(objects, skip):
    """Instance attributes as columns: the names (sorted union over
    `objects`) and per object one row string of plain() codes aligned with
    them, `-` where the object lacks the attribute."""
    names = sorted({k for o in objects for k in vars(o) if k not in skip
                    and not k.startswith("_")})
    rows = []
    for o in objects:
        d = vars(o)
        rows.append("".join(plain(d[n]) if n in d else "-" for n in names))
    return names, rows


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")
_FUNCTION_IDS = {}


_SOURCES = {}


def function_source(g):
    """inspect.getsource(g), or its code where there is no source. Cached
    per code object: getsource tokenizes the whole def each time, and
    OpInfos share their input functions through partials and closures of
    one def (half of taking a snapshot went there)."""
    code = getattr(g, "__code__", None)
    key = id(code if code is not None else g)
    if key not in _SOURCES:
        source = safe(lambda: inspect.getsource(g))
        if source is None:
            source = repr((code.co_code, code.co_consts)) if code else _ADDRESS.sub("", repr(g))
        _SOURCES[key] = (code, g, source)  # keep them alive: ids stay unique
    return _SOURCES[key][2]


def function_identity(f):
    """`module.qualname#digest` of a function's source, through no_grad
    wrappers and functools.partial: what `testmap diff` compares to tell
    an OpInfo whose sample inputs changed. Cached per function object."""
    key = id(f)
    if key in _FUNCTION_IDS:
        return _FUNCTION_IDS[key][1]
    parts = []
    g = f
    while isinstance(g, functools.partial):
        parts.append(_ADDRESS.sub("", repr((g.args, sorted(g.keywords.items())))))
        g = g.func
    g = safe(lambda: inspect.unwrap(g)) or g
    name = "%s.%s" % (getattr(g, "__module__", "?"), getattr(g, "__qualname__", type(g).__name__))
    source = function_source(g)
    digest = hashlib.blake2b((source + "".join(parts)).encode(), digest_size=8).hexdigest()
    _FUNCTION_IDS[key] = (f, name + "#" + digest)  # keep f alive: ids stay unique
    return _FUNCTION_IDS[key][1]


def decorator_identity(d):
    """A decorator of a DecorateInfo as text that is stable across runs:
    its name and, for the closures unittest.skip/skipIf return, the reason
    they close over; objects (toleranceOverride, precisionOverride) by
    their attributes."""
    name = getattr(d, "__qualname__", None)
    if name is not None:
        cells = [c.cell_contents for c in (getattr(d, "__closure__", None) or ())
                 if isinstance(safe(lambda: c.cell_contents), (str, bool, int, float))]
        return "%s.%s%s" % (getattr(d, "__module__", "?"), name, repr(cells) if cells else "")
    attrs = safe(lambda: vars(d)) or {}
    return _ADDRESS.sub("", "%s(%s)" % (type(d).__name__, repr(sorted(attrs.items()))))[:400]


def names(v):
    """A DecorateInfo's class, test or device type: `*` for any, else the
    name, or the names comma-separated (newer torch takes tuples)."""
    if not v:
        return "*"
    return ",".join(sorted(v)) if isinstance(v, (tuple, list, set)) else str(v)


def entry_lines(obj):
    """What an OpInfo/ModuleInfo contributes to a test besides its dtype
    tables, one line each, for content identities (docs/diff.md): every
    DecorateInfo (skips and xfails included) with the test class, test,
    device type and dtypes it applies to, and the identity of every
    input-generating function. Sorted: declaration order is no change.
    main() stores each distinct line once (ENTRY_LINES) and an entry as
    the indices of its lines: most lines repeat across op_db."""
    lines = []
    for di in getattr(obj, "decorators", None) or ():
        if not hasattr(di, "cls_name"):
            lines.append("decorate\t*\t*\t*\t*\tT\t" + decorator_identity(di))
            continue
        dts = "*" if di.dtypes is None else ",".join(sorted(dtype_name(d) for d in di.dtypes))
        lines.append("\t".join([
            "decorate", names(di.cls_name), names(di.test_name), names(di.device_type), dts,
            "T" if di.active_if else "F",
            " ".join(decorator_identity(d) for d in di.decorators)]))
    for k, v in sorted(vars(obj).items()):
        if "inputs" in k and callable(v):
            lines.append("func\t%s\t%s" % (k, function_identity(v)))
    return sorted(lines)


ENTRY_LINES, _ENTRY_INDEX = [], {}


def entry_indices(obj):
    """entry_lines(obj) as space-separated indices into ENTRY_LINES."""
    out = []
    for line in entry_lines(obj):
        if line not in _ENTRY_INDEX:
            _ENTRY_INDEX[line] = len(ENTRY_LINES)
            ENTRY_LINES.append(line)
        out.append(str(_ENTRY_INDEX[line]))
    return " ".join(out)


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
    rec["entry"] = entry_indices(op)
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
        "ctor_params": safe(lambda: list(inspect.signature(m.module_cls).parameters)),
        "entry": entry_indices(m),
    }


def testing_modules():
    """torch's test modules that importing its test machinery loaded."""
    return {name: mod for name, mod in sorted(sys.modules.items())
            if mod is not None and (name == "torch.testing._internal"
                                    or name.startswith("torch.testing._internal."))}


def module_constants(modules):
    """Plain module-level values (TEST_WITH_ROCM, TEST_SCIPY, IS_WINDOWS...)."""
    out = {}
    for name, mod in modules.items():
        consts = {}
        for k, v in vars(mod).items():
            if k.startswith("__") or not (v is None or isinstance(v, (bool, int, float, str))):
                continue
            if isinstance(v, float) and not math.isfinite(v):
                continue
            if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 2**62:
                continue
            consts[k] = v
        out[name] = consts
    return out


def module_names(modules):
    """What `from M import X` finds in each module: dir(M), and for a
    package the submodules it has on disk, imported or not."""
    import pkgutil
    out = {}
    for name, mod in modules.items():
        names = {k for k in dir(mod) if isinstance(k, str)}
        for info in pkgutil.iter_modules(getattr(mod, "__path__", None) or []):
            names.add(info.name)
        out[name] = " ".join(sorted(names))
    return out


# Modules outside torch's test machinery whose names test files pass as
# parameter values (torch.channels_last, torch.add, sys.maxsize, math.pi):
# pytest names a test by such a value's __name__ or str(), and torch's
# parametrize by the value or by its position, so the scan must know which
# each name is.
EXTERNAL_MODULES = ("torch", "torch.nn", "torch.nn.functional", "torch.linalg", "torch.fft",
                    "torch.special", "torch.sparse", "math", "cmath", "sys", "operator",
                    "builtins", "numpy")


def external_code(v):
    """plain()'s code, or n<utf-8 length>:<__name__> for a value with a str
    __name__ (a class, function or module: what pytest names a test by),
    or # for a number plain() does not spell (inf, nan, a huge int, a
    complex: str() names it)."""
    name = safe(lambda: getattr(v, "__name__", None))
    if isinstance(name, str):
        return "n%d:%s" % (len(name.encode()), name)
    if isinstance(v, int) and not isinstance(v, bool) and -2**63 <= v < 2**63:
        return "i%d;" % v  # sys.maxsize: the row reader reads any int64
    if isinstance(v, (int, float, complex)) and not isinstance(v, bool):
        code = plain(v)
        return "#" if code in ("O", "o") else code
    return plain(v)


def external_names():
    """Per module of EXTERNAL_MODULES that imports: its public names
    (sorted) and one row of external_code()s aligned with them."""
    import importlib
    import warnings
    out = {}
    missing = object()
    for module_name in EXTERNAL_MODULES:
        mod = safe(lambda: importlib.import_module(module_name))
        if mod is None:
            continue
        names, codes = [], []
        for k in sorted(k for k in dir(mod) if isinstance(k, str) and not k.startswith("__")):
            try:
                v = getattr(mod, k, missing)
            except Exception:
                v = missing
            # sys.argv and its like vary from run to run: a snapshot must not.
            if v is missing or (mod is sys and isinstance(v, (list, tuple, dict, set))):
                continue
            names.append(k)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # bool(NotImplemented)
                codes.append(external_code(v))
        out[module_name] = [names, "".join(codes)]
    return out


def module_alls():
    """`__all__` of torch._refs* and torch._prims*: test files list ops from it."""
    out = {}
    for name, mod in sorted(sys.modules.items()):
        if mod is None or not (name.startswith("torch._refs") or name.startswith("torch._prims")):
            continue
        names = getattr(mod, "__all__", None)
        if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
            out[name] = list(names)
    return out


def dtype_helper_calls():
    """Legacy helpers with arguments: get_all_dtypes(include_bool=False),
    get_all_math_dtypes("cpu"). Every combination of bool parameters (or
    each device type for a `device` parameter) with its result."""
    out = {}
    for name in dir(common_dtype):
        f = getattr(common_dtype, name)
        if name.startswith("_") or not inspect.isfunction(f):
            continue
        params = list(inspect.signature(f).parameters.values())
        if not params or any(p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
                             for p in params):
            continue
        if all(isinstance(p.default, bool) for p in params) and len(params) <= 8:
            choices = [(True, False)] * len(params)
        elif len(params) == 1 and params[0].default is inspect.Parameter.empty:
            choices = [DEVICE_TYPES]
        else:
            continue
        results = {}
        for combo in itertools.product(*choices):
            v = safe(lambda: f(*combo))
            if isinstance(v, (list, tuple)) and all(isinstance(d, torch.dtype) for d in v):
                results[",".join(str(c) for c in combo)] = [dtype_name(d) for d in v]
        if results:
            out[name] = {
                "params": [p.name for p in params],
                "defaults": [None if p.default is inspect.Parameter.empty else p.default
                             for p in params],
                "results": results,
            }
    return out


# What marks a module that may define OpInfo or ModuleInfo lists.
_INFO_WORDS = re.compile(rb"\b(?:OpInfo|ModuleInfo)\b")


def import_info_modules():
    """Imports every torch.testing._internal module whose source names
    OpInfo or ModuleInfo (custom_op_db, hop_db, opinfo.definitions.*):
    test files import op lists from them too. Found by reading the sources
    rather than importing every module (distributed, inductor helpers),
    which would cost seconds and run their side effects. A module that
    fails to import is left out, and what one prints goes to stderr, never
    into the snapshot."""
    import importlib
    import torch.testing._internal as package
    found = []
    for root in package.__path__:
        for path, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d != "__pycache__")
            rel = os.path.relpath(path, root)
            prefix = package.__name__ + ("" if rel == "." else "." + rel.replace(os.sep, "."))
            for f in sorted(files):
                if not f.endswith(".py"):
                    continue
                with open(os.path.join(path, f), "rb") as source:
                    if not _INFO_WORDS.search(source.read()):
                        continue
                found.append(prefix if f == "__init__.py" else prefix + "." + f[:-3])
    for name in found:
        with contextlib.redirect_stdout(sys.stderr):
            try:
                importlib.import_module(name)
            except KeyboardInterrupt:
                raise
            except BaseException:  # SkipTest, SystemExit, a missing optional package
                pass


def named_lists(modules, item_type):
    """Module-level lists/tuples made only of `item_type`, by module and
    name (`torch.testing._internal.custom_op_db.custom_op_db`): what `from
    M import X` gives, re-exports included (common_methods_invocations'
    op_db is also opinfo.definitions.nested's)."""
    out = {}
    for module_name, module in modules.items():
        for name, value in vars(module).items():
            if isinstance(value, (list, tuple)) and value and all(
                    isinstance(v, item_type) for v in value):
                out[module_name + "." + name] = value
    return out


def module_enums(modules):
    """`M.Name` -> qualified class for each plain Enum class a test module
    binds (`...common_methods_invocations.SpectralFuncType` is
    `...opinfo.core.SpectralFuncType`), so `SpectralFuncType.OneD`
    resolves through the module a test imports it from."""
    out = {}
    for module_name, module in modules.items():
        for name, value in vars(module).items():
            if plain_enum_class(value):
                out[module_name + "." + name] = enum_class_name(value)
    return out


def enum_classes():
    """Members of every enum class the snapshot names: member -> the
    canonical member it is (itself, or the one an alias stands for)."""
    return {name: {member: value.name for member, value in cls.__members__.items()}
            for name, cls in sorted(ENUM_CLASSES.items())}


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


# torch.Tag names, in a fixed order: each operator's tags are a bitmask
# over them (`torch.Tag.reduction in torch.ops.aten.sum.default.tags`).
OPERATOR_TAGS = sorted(t.name for t in torch.Tag.__members__.values())


def operator_tags(name):
    ns, _, rest = name.partition("::")
    packet, _, overload = rest.partition(".")
    found = safe(lambda: torch._C._get_operation_overload(ns + "::" + packet, overload))
    mask = 0
    for tag in (found[2] if found else ()):
        mask |= 1 << OPERATOR_TAGS.index(tag.name)
    return mask


def operator_registry():
    """[[`aten::add.Tensor`, schema, kernel key bitmask, tag bitmask], ...]
    sorted by name."""
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
        out.append([name, schemas.get(name, ""), mask, operator_tags(name)])
    return out


def main():
    op_objects, module_objects = [], []

    def keep(objects, record):
        def f(o):
            objects.append(o)
            return record(o)
        return f

    # The registry as importing torch's core test machinery leaves it: the
    # modules imported next register test-only operators (custom_op_db's
    # `_torch_testing::*`).
    operators = operator_registry()
    import_info_modules()
    test_modules = testing_modules()
    ops, op_lists = index_lists(named_lists(test_modules, OpInfo), keep(op_objects, op_record))
    modules, module_lists = index_lists(
        named_lists(test_modules, common_modules.ModuleInfo), keep(module_objects, module_record))
    # Columns beyond what op_record/module_record hold; dtype tables and
    # sample-input closures are recorded (as objects) like the rest.
    op_attr_names, op_rows = attr_columns(op_objects, skip=("name", "variant_test_name"))
    module_attr_names, module_rows = attr_columns(module_objects, skip=("name",))
    classes, class_index = [], {}
    for rec, op in zip(ops, op_objects):
        mro = tuple(c.__name__ for c in type(op).__mro__ if c is not object)
        if mro not in class_index:
            class_index[mro] = len(classes)
            classes.append(list(mro))
        rec["cls"] = class_index[mro]
    for rec, row in zip(ops, op_rows):
        rec["attrs"] = row
    for rec, row in zip(modules, module_rows):
        rec["attrs"] = row
    enum_names = module_enums(test_modules)

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
        "op_attr_names": op_attr_names,
        "op_classes": classes,
        "module_attr_names": module_attr_names,
        "entry_lines": ENTRY_LINES,
        "dtype_helper_calls": dtype_helper_calls(),
        "module_constants": module_constants(test_modules),
        "module_names": module_names(test_modules),
        "module_alls": module_alls(),
        "external_names": external_names(),
        "operator_kernel_keys": list(OPERATOR_KERNEL_KEYS),
        "operator_tags": OPERATOR_TAGS,
        "operators": operators,
        "enum_names": enum_names,
        "enum_classes": enum_classes(),
    }, sys.stdout, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
