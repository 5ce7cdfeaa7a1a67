"""Roles: where in a test an op ran (docs/trace-format.md, DESIGN.md).

    test      the test's own code (the default)
    assert    inside TestCase.assertEqual / assertNotEqual and
              torch.testing.assert_close
    inputs    inside torch.testing.make_tensor and the OpInfo / ModuleInfo
              input functions (sample, reference and error inputs)
    setup     pytest's setup phase (fixtures, setUpClass) and a unittest
              TestCase's setUp
    teardown  pytest's teardown phase and a unittest TestCase's tearDown

A role lasts for the dynamic extent of the call that gives it; for a call
returning an iterator (OpInfo.sample_inputs, a generator sample function),
for each step of the iteration too, since that is where a generator does its
work. The innermost extent wins: make_tensor called by a fixture is
`inputs`, assertEqual inside an input function is `assert`.

The functions are wrapped once per process, before the test modules import
them (`from torch.testing import make_tensor` binds the wrapper), and
modules that bound an original earlier are swept after collection. Outside
a test, and on any thread but the test's, a wrapper only calls through.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
import threading

from . import ROLES


class RoleTracker:
    """The current role of the test's thread, passed on to the recorders
    (anything with `set_role(name)`) whenever it changes."""

    def __init__(self, sinks):
        self.sinks = [s for s in sinks if s is not None]
        self.current = "test"
        self.active = False
        self.thread = threading.get_ident()

    def start(self) -> None:
        self.thread = threading.get_ident()
        self.active = True
        self.enter("test")

    def stop(self) -> None:
        self.enter("test")
        self.active = False

    def enter(self, role: str) -> str:
        """Makes `role` current; returns the role to restore with enter()."""
        previous = self.current
        if role != previous:
            self.current = role
            for sink in self.sinks:
                sink.set_role(role)
        return previous

    def applies(self) -> bool:
        return self.active and threading.get_ident() == self.thread


class _RoleIterator:
    """An iterator whose every step runs in `role`."""

    def __init__(self, inner, role, tracker):
        self._inner, self._role, self._tracker = inner, role, tracker

    def __iter__(self):
        return self

    def __next__(self):
        if not self._tracker.applies():
            return next(self._inner)
        previous = self._tracker.enter(self._role)
        try:
            return next(self._inner)
        finally:
            self._tracker.enter(previous)

    def __getattr__(self, name):  # TrackedInputIter's attributes, and the like
        return getattr(self._inner, name)


def _wrap(fn, role, tracker, iterates=False):
    if getattr(fn, "__testmap_role__", None) == role:
        return fn

    @functools.wraps(fn)
    def in_role(*args, **kwargs):
        if not tracker.applies():
            return fn(*args, **kwargs)
        previous = tracker.enter(role)
        try:
            result = fn(*args, **kwargs)
        finally:
            tracker.enter(previous)
        if iterates and hasattr(result, "__next__"):
            return _RoleIterator(result, role, tracker)
        return result

    in_role.__testmap_role__ = role
    in_role.__testmap_original__ = fn
    return in_role


class _RoleAttribute:
    """A data descriptor for an attribute that holds an input function
    (OpInfo.sample_inputs_func, ModuleInfo.module_inputs_func): instances
    keep storing the plain function, reading it gives the wrapped one, for
    instances made before and after installation alike."""

    def __init__(self, name, role, tracker, default):
        self.name, self.role, self.tracker, self.default = name, role, tracker, default
        self.cache = "_testmap_wrapped_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.default
        d = obj.__dict__
        fn = d.get(self.name, self.default)
        if fn is None or not callable(fn):
            return fn
        cached = d.get(self.cache)
        if cached is None or cached[0] is not fn:
            cached = d[self.cache] = (fn, _wrap(fn, self.role, self.tracker, iterates=True))
        return cached[1]

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value


def _with_subclasses(cls):
    out, todo = [], [cls]
    while todo:
        c = todo.pop()
        if c not in out:
            out.append(c)
            todo.extend(c.__subclasses__())
    return out


class RoleWrappers:
    """Installs the wrappers for one tracker (one per process)."""

    _FUNCTIONS = (("make_tensor", "inputs", ("torch.testing._creation", "torch.testing")),
                  ("assert_close", "assert", ("torch.testing._comparison", "torch.testing")))

    def __init__(self, tracker: RoleTracker):
        self.tracker = tracker
        self.originals = {}  # name -> (original, wrapper)
        self.classes_done = set()

    def install_functions(self) -> None:
        import importlib

        for name, role, modules in self._FUNCTIONS:
            first = importlib.import_module(modules[0])
            original = getattr(first, name)
            original = getattr(original, "__testmap_original__", original)
            wrapper = _wrap(original, role, self.tracker)
            self.originals[name] = (original, wrapper)
            for module_name in modules:
                setattr(importlib.import_module(module_name), name, wrapper)

    def install_classes(self) -> None:
        """TestCase, OpInfo and ModuleInfo, once their modules are imported
        (cheap to call before every test)."""
        modules = sys.modules
        if "common_utils" not in self.classes_done:
            cu = modules.get("torch.testing._internal.common_utils")
            if cu is not None:
                for cls in _with_subclasses(cu.TestCase):
                    for name in ("assertEqual", "assertNotEqual"):
                        if name in vars(cls):
                            setattr(cls, name, _wrap(vars(cls)[name], "assert", self.tracker))
                self.classes_done.add("common_utils")
        if "opinfo" not in self.classes_done:
            core = modules.get("torch.testing._internal.opinfo.core")
            if core is not None:
                self._install_opinfo(core.OpInfo)
                self.classes_done.add("opinfo")
        if "modules" not in self.classes_done:
            cm = modules.get("torch.testing._internal.common_modules")
            if cm is not None:
                names = [n for n in inspect.signature(cm.ModuleInfo.__init__).parameters
                         if n.endswith("inputs_func")]
                self._install_attributes(cm.ModuleInfo, names)
                self.classes_done.add("modules")

    def _install_opinfo(self, base) -> None:
        for cls in _with_subclasses(base):
            for name, member in list(vars(cls).items()):
                if callable(member) and not name.endswith("_func") and (
                    name.startswith(("sample_inputs", "reference_inputs", "error_inputs"))
                    or name == "conjugate_sample_inputs"
                ):
                    setattr(cls, name, _wrap(member, "inputs", self.tracker, iterates=True))
        names = [f.name for f in dataclasses.fields(base) if f.name.endswith("_func") and "inputs" in f.name]
        self._install_attributes(base, names)

    def _install_attributes(self, base, names) -> None:
        for cls in _with_subclasses(base):
            for name in names:
                if cls is base or (name in vars(cls) and not isinstance(vars(cls)[name], _RoleAttribute)):
                    default = vars(cls).get(name)
                    if isinstance(default, _RoleAttribute):
                        continue
                    setattr(cls, name, _RoleAttribute(name, "inputs", self.tracker, default))

    def sweep_modules(self) -> None:
        """Rebinds module globals that still hold an original (modules that
        imported it before install_functions)."""
        for module in list(sys.modules.values()):
            d = getattr(module, "__dict__", None)
            if not isinstance(d, dict):
                continue
            for name, (original, wrapper) in self.originals.items():
                if d.get(name) is original:
                    d[name] = wrapper


def wrap_unittest_phases(item, tracker: RoleTracker) -> None:
    """setUp and tearDown of a unittest TestCase run inside pytest's call
    phase: give them their roles."""
    import unittest

    case = getattr(item, "instance", None)
    if not isinstance(case, unittest.TestCase):
        return
    for name, role in (("setUp", "setup"), ("tearDown", "teardown")):
        method = getattr(case, name, None)
        if method is not None:
            setattr(case, name, _wrap(method, role, tracker))


assert ROLES[0] == "test"
