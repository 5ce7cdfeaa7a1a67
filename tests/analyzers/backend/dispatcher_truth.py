"""Ground truth for the backend tests: what importing a backend registers,
computed independently of `testmap backend dump` (which diffs each
operator's _dispatch_dump listing): per dispatch key, the operators
torch._C._dispatch_get_registrations_for_dispatch_key lists after the import
and not before, whether each is a fallthrough
(_dispatch_kernel_for_dispatch_key_is_fallthrough), new backend fallbacks,
and new operators that have a schema (_dispatch_find_schema_or_throw).

Usage: python dispatcher_truth.py OUT.json MODULE [PATH]
"""

import importlib
import json
import re
import sys

import torch

C = torch._C


def keys():
    out = []
    for name, key in C.DispatchKey.__members__.items():
        try:
            C._dispatch_get_registrations_for_dispatch_key(name)
            C._dispatch_has_backend_fallback(key)
        except Exception:
            continue
        out.append((name, key))
    return out


def has_schema(op):
    name, _, overload = op.partition(".")
    try:
        C._dispatch_find_schema_or_throw(name, overload)
        return True
    except RuntimeError:
        return False


def fallback_kind(name):
    # The computed table of an operator with no kernel of its own for the
    # key shows the backend fallback, fallthrough or not.
    for op in C._dispatch_get_all_op_names():
        if C._dispatch_has_kernel_for_dispatch_key(op, name):
            continue
        for line in C._dispatch_dump_table(op).splitlines():
            m = re.match(r"^(\w+): (fallthrough )?registered at .* \[backend fallback\]$", line)
            if m and m.group(1) == name:
                return "fallthrough" if m.group(2) else "fallback"
    return "fallback"


def main():
    out_path, module = sys.argv[1], sys.argv[2]
    if len(sys.argv) > 3:
        sys.path.insert(0, sys.argv[3])
    ks = keys()
    regs_before = {n: set(C._dispatch_get_registrations_for_dispatch_key(n)) for n, _ in ks}
    fallback_before = {n: C._dispatch_has_backend_fallback(k) for n, k in ks}
    ops_before = set(C._dispatch_get_all_op_names())
    importlib.import_module(module)
    records = []
    for n, k in ks:
        for op in sorted(set(C._dispatch_get_registrations_for_dispatch_key(n)) - regs_before[n]):
            fall = C._dispatch_kernel_for_dispatch_key_is_fallthrough(op, n)
            records.append([op, n, "fallthrough" if fall else "kernel"])
        if C._dispatch_has_backend_fallback(k) and not fallback_before[n]:
            records.append([None, n, fallback_kind(n)])
    for op in sorted(set(C._dispatch_get_all_op_names()) - ops_before):
        if has_schema(op):
            records.append([op, None, "definition"])
    with open(out_path, "w") as f:
        json.dump({"privateuse1": C._get_privateuse1_backend_name(), "records": records}, f)


if __name__ == "__main__":
    main()
