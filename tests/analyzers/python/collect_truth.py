"""Ground truth for scan tests: what pytest itself collects, with each
item's own attributes. Runs real pytest collection (which imports the test
files and torch) in the current directory and writes JSON to argv[1]:

  [{"nodeid", "cls", "function", "line", "params": {...}}, ...]

`function` is the test function's __name__ (torch's instantiated tests keep
the generic function's name through functools.wraps), `params` the
parameters torch or pytest bound to the item (dtype names, OpInfo and
ModuleInfo names, training flag, device).
"""

import inspect
import json
import sys

import pytest


def describe(value):
    import torch

    if isinstance(value, torch.dtype):
        return str(value).split(".")[1]
    if isinstance(value, (list, tuple)) and all(isinstance(v, torch.dtype) for v in value):
        return [str(v).split(".")[1] for v in value]
    kind = type(value).__name__
    if hasattr(value, "formatted_name") and hasattr(value, "name"):
        variant = getattr(value, "variant_test_name", "")
        return {"info": kind, "name": value.name, "variant": variant}
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return repr(value)


class Recorder:
    def __init__(self):
        self.items = []

    def pytest_collection_modifyitems(self, items):
        for item in items:
            fn = getattr(item, "obj", None)
            params = {}
            if hasattr(item, "callspec"):
                params = {k: describe(v) for k, v in item.callspec.params.items()}
            elif getattr(item, "cls", None) is not None:
                # torch's instantiated_test(self, param_kwargs=...) carries its
                # parameters as the default of its last argument. Read it from
                # the class: torch's TestCase wraps the method on the instance.
                raw = getattr(item.cls, item.name, None)
                defaults = getattr(raw, "__defaults__", None)
                if defaults and isinstance(defaults[-1], dict):
                    params = {k: describe(v) for k, v in defaults[-1].items()}
            raw = getattr(item.cls, item.name, None) if getattr(item, "cls", None) else fn
            reprs = {k: repr(v) for k, v in (item.callspec.params.items() if hasattr(item, "callspec")
                                             else getattr(raw, "__defaults__", None) and
                                             isinstance(raw.__defaults__[-1], dict) and
                                             raw.__defaults__[-1].items() or [])
                     if isinstance(v, (bool, int, float, str)) or v is None}
            try:
                line = inspect.getsourcelines(inspect.unwrap(fn))[1]
            except (TypeError, OSError):
                line = 0
            self.items.append({
                "nodeid": item.nodeid,
                "cls": item.cls.__name__ if getattr(item, "cls", None) else "",
                "function": getattr(fn, "__name__", ""),
                "qualname": getattr(raw, "__qualname__", ""),
                "reprs": reprs,
                "line": line,
                "params": params,
            })


def main():
    rec = Recorder()
    code = pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider"] + sys.argv[2:], plugins=[rec])
    with open(sys.argv[1], "w") as f:
        json.dump(rec.items, f)
    sys.exit(0 if code in (0, 5) else code)


if __name__ == "__main__":
    main()
