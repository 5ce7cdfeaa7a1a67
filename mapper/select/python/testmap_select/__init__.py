"""testmap_select: select and configure PyTorch tests from a testmap index.

    pytest -p testmap_select --testmap-index .testmap -m op__add
    pytest -p testmap_select --testmap-role all -m op__abs
    pytest -p testmap_select --testmap-config backend.yaml test/test_ops.py
    pytest -p testmap_select --testmap-select ids.txt

At collection time every item gets marks from the index (``op__<packet>``
for each operator packet it runs, ``dtype__<dtype>`` for each dtype it runs
one with; the naming rule is mapper/select/select_marks.h), from the
observations of the roles ``--testmap-role`` names (default ``test``, the
test's own code, as ``testmap query``: ``-m op__X`` selects what ``testmap
query --op X`` lists), and a
test_suite_config's modes are applied to it: ``skip``, ``xfail``,
``xfail_strict`` (with the strictness always given, since PyTorch's
pytest.ini sets ``xfail_strict = True``), dtype and OpInfo exclusions. The
test sources are not touched.

The index is read through testmap's own library (libtestmap_select.so, a C
API loaded with ctypes), opened once per session: this plugin knows nothing
of the index's key layout.
"""

from __future__ import annotations

import ctypes
import json
import os
import warnings

import pytest

_LIB_NAME = "libtestmap_select.so"


def pytest_addoption(parser):
    group = parser.getgroup("testmap_select", "select tests from a testmap index")
    group.addoption("--testmap-index", default=None,
                    help="testmap index directory (default: $TESTMAP_INDEX or .testmap)")
    group.addoption("--testmap-config", default=None,
                    help="test_suite_config whose modes to apply (skip, xfail, xfail_strict, "
                         "mandatory_success, dtype excludes)")
    group.addoption("--testmap-root-token", default="${TORCH_ROOT}",
                    help="what the config's paths start with for the rootdir (default "
                         "${TORCH_ROOT})")
    group.addoption("--testmap-role", default="test", metavar="ROLES",
                    help="roles whose operators give marks, as `testmap query --role`: test "
                         "(default), assert, inputs, setup, teardown, comma lists, all")
    group.addoption("--testmap-select", default=None, metavar="FILE",
                    help="run only the node ids listed in FILE (one a line)")
    group.addoption("--testmap-lib", default=None,
                    help=f"path of {_LIB_NAME} (default: $TESTMAP_SELECT_LIB, or the build "
                         "next to this package)")


def _find_library(option):
    if option:
        return option
    if os.environ.get("TESTMAP_SELECT_LIB"):
        return os.environ["TESTMAP_SELECT_LIB"]
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [
        os.path.join(here, "..", "..", "..", "lib", _LIB_NAME),  # installed: share/testmap/python
    ]
    root = os.path.join(here, "..", "..", "..", "..")  # source tree: mapper/select/python
    for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        if name.startswith("build"):
            candidates.append(os.path.join(root, name, "lib", _LIB_NAME))
    for c in candidates:
        if os.path.exists(c):
            return os.path.normpath(c)
    raise pytest.UsageError(
        f"testmap_select: {_LIB_NAME} not found (tried {', '.join(candidates)}); "
        "give --testmap-lib or set TESTMAP_SELECT_LIB")


class _Session:
    """One open index (and config) through the C API."""

    def __init__(self, lib_path, index, config, root_token, roles):
        lib = ctypes.CDLL(lib_path)
        lib.tm_select_open.restype = ctypes.c_void_p
        lib.tm_select_open.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p,
                                       ctypes.POINTER(ctypes.c_void_p),
                                       ctypes.POINTER(ctypes.c_void_p)]
        lib.tm_select_answer.restype = ctypes.c_void_p
        lib.tm_select_answer.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_char_p),
                                         ctypes.c_size_t, ctypes.POINTER(ctypes.c_void_p)]
        lib.tm_select_set_roles.restype = ctypes.c_int
        lib.tm_select_set_roles.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                            ctypes.POINTER(ctypes.c_void_p)]
        lib.tm_select_close.argtypes = [ctypes.c_void_p]
        lib.tm_select_free.argtypes = [ctypes.c_void_p]
        self._lib = lib
        warnings, error = ctypes.c_void_p(), ctypes.c_void_p()
        self._handle = lib.tm_select_open(index.encode(), (config or "").encode(),
                                          root_token.encode(), ctypes.byref(warnings),
                                          ctypes.byref(error))
        if not self._handle:
            raise pytest.UsageError(f"testmap_select: {self._take(error)}")
        self.warnings = json.loads(self._take(warnings) or "[]")
        if lib.tm_select_set_roles(self._handle, roles.encode(), ctypes.byref(error)) != 0:
            message = self._take(error)
            self.close()
            raise pytest.UsageError(f"testmap_select: --testmap-role: {message}")

    def _take(self, pointer):
        if not pointer.value:
            return None
        text = ctypes.string_at(pointer.value).decode("utf-8", "replace")
        self._lib.tm_select_free(pointer.value)
        return text

    def answer(self, nodeids):
        array = (ctypes.c_char_p * len(nodeids))(*[n.encode() for n in nodeids])
        error = ctypes.c_void_p()
        result = ctypes.c_void_p(self._lib.tm_select_answer(self._handle, array, len(nodeids),
                                                            ctypes.byref(error)))
        if not result.value:
            raise pytest.UsageError(f"testmap_select: {self._take(error)}")
        return json.loads(self._take(result))

    def close(self):
        if self._handle:
            self._lib.tm_select_close(self._handle)
            self._handle = None


def pytest_configure(config):
    index = config.getoption("--testmap-index") or os.environ.get("TESTMAP_INDEX") or ".testmap"
    session = _Session(_find_library(config.getoption("--testmap-lib")), index,
                       config.getoption("--testmap-config"),
                       config.getoption("--testmap-root-token"),
                       config.getoption("--testmap-role"))
    for w in session.warnings:
        config.issue_config_time_warning(pytest.PytestConfigWarning(f"testmap_select: {w}"), 2)
    config._testmap_select = session


def pytest_unconfigure(config):
    session = getattr(config, "_testmap_select", None)
    if session:
        session.close()


def _selected(path):
    try:
        with open(path, encoding="utf-8") as f:
            return {line.strip() for line in f if line.strip() and not line.startswith("#")}
    except OSError as e:
        raise pytest.UsageError(f"testmap_select: --testmap-select {path}: {e.strerror}")


# First, so that `-m op__add` (pytest's own modifyitems) sees the marks.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session, config, items):
    select = config.getoption("--testmap-select")
    if select:
        wanted = _selected(select)
        kept = [i for i in items if i.nodeid in wanted]
        dropped = [i for i in items if i.nodeid not in wanted]
        if dropped:
            config.hook.pytest_deselected(items=dropped)
        items[:] = kept
    if not items:
        return
    answers = config._testmap_select.answer([i.nodeid for i in items])
    if not any(a["in_index"] for a in answers.values()):
        # Usually a rootdir other than the scan's: pytest takes the value of
        # `--testmap-index DIR` (two words) for a path and moves the rootdir.
        warnings.warn(pytest.PytestWarning(
            f"testmap_select: none of the {len(items)} collected tests is in the index "
            f"(rootdir {config.rootpath}); scan and trace from the same rootdir, and write "
            "options as --testmap-index=DIR"))
    marks = sorted({m for a in answers.values() for m in a["marks"]})
    for m in marks:  # registered, so --strict-markers accepts them
        config.addinivalue_line("markers", f"{m}: set by testmap_select from the index")
    for item in items:
        a = answers[item.nodeid]
        for m in a["marks"]:
            item.add_marker(getattr(pytest.mark, m))
        mode = a["mode"]
        reason = f"testmap config: {a['reason']}"
        if mode == "skip":
            item.add_marker(pytest.mark.skip(reason=reason))
        elif mode == "xfail":
            item.add_marker(pytest.mark.xfail(reason=reason, strict=False))
        elif mode == "xfail_strict":
            item.add_marker(pytest.mark.xfail(reason=reason, strict=True))
