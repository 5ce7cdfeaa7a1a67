"""What importing a backend registers with the dispatcher, read from the live
dispatcher: `testmap backend dump`. Prints one JSON document on stdout.

Every operator's registration table (torch._C._dispatch_dump) and every
dispatch key's backend fallback (_dispatch_has_backend_fallback) are taken
before and after importing the given modules; what the import added is the
backend's: new kernels and fallthroughs per (op, key) (overrides of torch's
own kernels included), new backend fallbacks, new schemas.

Usage: python dispatcher_dump.py MODULE... (sys.path extended by
TESTMAP_DUMP_PATH, ':'-separated)
"""

import importlib
import json
import os
import re
import sys
import traceback
from collections import Counter

import torch

# torch modules that register kernels when first imported; importing them
# first keeps their registrations out of the backend's.
WARM_UP = ("torch.library", "torch._library.custom_ops", "torch._meta_registrations",
           "torch._decomp", "torch._refs", "torch._prims")

ENTRY = re.compile(r"^(?P<key>[A-Za-z0-9_]+)(?P<alias>\[alias\])?(?P<inactive> \(inactive\))?: "
                   r"registered at (?P<where>.*?)(?: :: .*)?$")
FALLBACK = re.compile(r"^(?P<key>[A-Za-z0-9_]+): (?P<fallthrough>fallthrough )?registered at "
                      r"(?P<where>.*?) \[backend fallback\]$")


def split_where(where):
    file, _, line = where.rpartition(":")
    if file and line.isdigit():
        return file, int(line)
    return where, None


# The fields of a _dispatch_dump that are not kernels.
HEADER_FIELDS = ("name", "schema", "debug", "alias analysis kind")


def entries(dump):
    """(key, where) of each kernel in an operator's registration list."""
    out = Counter()
    for line in dump.splitlines():
        if line.split(":", 1)[0] in HEADER_FIELDS:
            continue
        m = ENTRY.match(line)
        if m:
            out[(m["key"], m["where"])] += 1
    return out


def is_fallthrough(op, key):
    """Whether the kernel now active for (op, key) is a fallthrough; the
    registration list does not say, the dispatcher does."""
    try:
        return torch._C._dispatch_kernel_for_dispatch_key_is_fallthrough(op, key)
    except Exception:
        return False


def field(dump, name):
    for line in dump.splitlines():
        if line.startswith(name + ": "):
            return line[len(name) + 2:]
    return None


def dispatch_keys():
    keys = []
    for name, key in torch._C.DispatchKey.__members__.items():
        try:
            torch._C._dispatch_has_backend_fallback(key)
        except Exception:
            continue
        keys.append((name, key))
    return keys


def snapshot(keys):
    ops = {op: torch._C._dispatch_dump(op) for op in torch._C._dispatch_get_all_op_names()}
    fallbacks = {name: torch._C._dispatch_has_backend_fallback(key) for name, key in keys}
    return ops, fallbacks


def fallback_record(name, ops):
    """A new backend fallback: its kind and place, from a table that shows it."""
    for op in ops:
        if torch._C._dispatch_has_kernel_for_dispatch_key(op, name):
            continue
        for line in torch._C._dispatch_dump_table(op).splitlines():
            m = FALLBACK.match(line)
            if m and m["key"] == name:
                file, line_no = split_where(m["where"])
                return {"op": None, "dispatch_key": name,
                        "kind": "fallthrough" if m["fallthrough"] else "fallback",
                        "file": file, "line": line_no}
        break
    return {"op": None, "dispatch_key": name, "kind": "fallback", "file": None, "line": None}


def main():
    for p in reversed([p for p in os.environ.get("TESTMAP_DUMP_PATH", "").split(":") if p]):
        sys.path.insert(0, p)
    for m in WARM_UP:
        try:
            importlib.import_module(m)
        except Exception:
            pass
    keys = dispatch_keys()
    ops_before, fallbacks_before = snapshot(keys)
    errors = []
    for module in sys.argv[1:]:
        try:
            importlib.import_module(module)
        except BaseException:
            errors.append({"module": module, "error": traceback.format_exc(limit=8)})
    ops_after, fallbacks_after = snapshot(keys)

    records = []
    for op, dump in ops_after.items():
        before = ops_before.get(op)
        if before == dump:
            continue
        schema = field(dump, "schema")
        # A new name without a schema is an impl of an operator nobody
        # defined (a TorchScript-only overload): not a definition.
        if before is None and schema and schema != "(none)":
            file, line = split_where((field(dump, "debug") or "").replace("registered at ", "", 1))
            records.append({"op": op, "dispatch_key": None, "kind": "definition",
                            "file": file or None, "line": line, "schema": schema})
        added = entries(dump) - entries(before or "")
        for (key, where), count in added.items():
            file, line = split_where(where)
            kind = "fallthrough" if is_fallthrough(op, key) else "kernel"
            for _ in range(count):
                records.append({"op": op, "dispatch_key": key, "kind": kind,
                                "file": file, "line": line})
    for name, has in fallbacks_after.items():
        if has and not fallbacks_before.get(name):
            records.append(fallback_record(name, ops_after))

    print(json.dumps({
        "format": "testmap-dispatcher-dump/1",
        "torch_version": torch.__version__,
        "privateuse1_backend": torch._C._get_privateuse1_backend_name(),
        "modules": sys.argv[1:],
        "errors": errors,
        "records": records,
    }))


if __name__ == "__main__":
    main()
