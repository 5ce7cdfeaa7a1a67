"""What `testmap backend scan` needs from the torch a backend is read against,
as JSON on stdout: the include paths and C++ standard a torch extension
compiles with, and torch's operator schemas (for expanding `aten.<packet>`
lists into overloads and for checking that registered names exist).

Taken once per torch installation and cached by the scan. Usage:
python torch_probe.py > probe.json
"""

import json
import os
import re
import sysconfig

import torch
from torch.utils import cpp_extension

FORMAT = "testmap-torch-probe/1"


def cxx_standard():
    """The standard TorchConfig.cmake asks extensions for (C++20 for 2.13)."""
    config = os.path.join(torch.utils.cmake_prefix_path, "Torch", "TorchConfig.cmake")
    try:
        with open(config) as f:
            m = re.search(r"CXX_STANDARD\s+(\d+)", f.read())
        if m:
            return "c++" + m.group(1)
    except OSError:
        pass
    return "c++17"


def argument(a):
    alias = a.alias_info
    return {
        "name": a.name,
        "type": str(a.type),
        "is_out": bool(a.is_out),
        "kwarg_only": bool(a.kwarg_only),
        "is_write": bool(alias is not None and alias.is_write),
        "has_alias": alias is not None,
    }


# Schemas come straight from this torch until the project's torch snapshot
# carries an operator registry; this function is all that then goes away.
def schemas():
    in_dispatcher = set(torch._C._dispatch_get_all_op_names())
    out = []
    for s in torch._C._jit_get_all_schemas():
        name = s.name + ("." + s.overload_name if s.overload_name else "")
        out.append({
            "name": s.name,
            "overload": s.overload_name,
            "schema": str(s),
            "arguments": [argument(a) for a in s.arguments],
            "returns": [argument(r) for r in s.returns],
            "is_mutable": bool(s.is_mutable),
            "in_dispatcher": name in in_dispatcher,
        })
    return out


# Device types whose dispatch key torch.library's device strings map to.
DEVICE_TYPES = ("cpu", "cuda", "hip", "xla", "mps", "ipu", "xpu", "hpu", "meta", "lazy", "mtia",
                "maia", "privateuseone", "ve", "vulkan", "fpga")


def device_keys():
    keys = {}
    for d in DEVICE_TYPES:
        try:
            keys[d] = torch._C._dispatch_key_for_device(d)
        except Exception:
            pass
    return keys


def main():
    print(json.dumps({
        "format": FORMAT,
        "torch_version": torch.__version__,
        "include_paths": cpp_extension.include_paths(),
        "python_include": sysconfig.get_paths()["include"],
        "cxx_standard": cxx_standard(),
        "dispatch_keys": list(torch._C.DispatchKey.__members__),
        "device_keys": device_keys(),
        "schemas": schemas(),
    }))


if __name__ == "__main__":
    main()
