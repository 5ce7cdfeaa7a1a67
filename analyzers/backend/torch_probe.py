"""What `testmap backend scan` needs from the torch a backend is read against,
besides the torch snapshot's operator registry, as JSON on stdout: the
include paths and C++ standard a torch extension compiles with, how
torch.library maps device strings to dispatch keys, and the TorchScript-only
overloads the snapshot's registry leaves out.

Taken once per torch installation and cached by the scan. Usage:
python torch_probe.py > probe.json
"""

import json
import os
import re
import sysconfig

import torch
from torch.utils import cpp_extension

FORMAT = "testmap-torch-probe/2"


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


def torchscript_only_schemas():
    """Overloads TorchScript knows and the dispatcher does not (`aten::add.int`).

    The torch snapshot's operator registry leaves them out (they never reach a
    dispatch key), but OpOverloadPacket.overloads() lists them, so a backend
    helper that registers every overload of a packet registers (dangling)
    kernels for them too; the scan needs their schemas to follow it.
    """
    in_dispatcher = set(torch._C._dispatch_get_all_op_names())
    out = []
    for s in torch._C._jit_get_all_schemas():
        name = s.name + ("." + s.overload_name if s.overload_name else "")
        if name not in in_dispatcher:
            out.append(str(s))
    return out


def main():
    print(json.dumps({
        "format": FORMAT,
        "torch_version": torch.__version__,
        "include_paths": cpp_extension.include_paths(),
        "python_include": sysconfig.get_paths()["include"],
        "cxx_standard": cxx_standard(),
        "dispatch_keys": list(torch._C.DispatchKey.__members__),
        "device_keys": device_keys(),
        "torchscript_only_schemas": torchscript_only_schemas(),
    }))


if __name__ == "__main__":
    main()
