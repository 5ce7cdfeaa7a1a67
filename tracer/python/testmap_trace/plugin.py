"""pytest plugin: marks test boundaries, records outcomes and per-phase
durations, and streams one record per test to a JSONL shard.

Options (normally passed by `testmap trace`):
  --testmap-out DIR            where shards go (required to activate)
  --testmap-recorder cpp|reference|none
  --testmap-tracer-lib PATH    libtestmap_tracer.so (cpp recorder)
  --testmap-compile-logs       capture aot_graphs/post_grad_graphs per test
  --testmap-logs-lib PATH      libtestmap_torch_logs.so (the parser)
  --testmap-passthrough-mode   run every test under a do-nothing
                               TorchDispatchMode (for checking the C++
                               recorder against the reference, see below)

Why the passthrough mode: an active TorchDispatchMode changes the program
it observes. ATen's isTensorSubclassLike() is true whenever a mode is
active, and kernels then take their out-of-place branches (isclose uses
bitwise_and instead of bitwise_and_, max's backward scatter instead of
scatter_), and autograd adds detach calls. The C++ recorder sees the
untouched program; run under a passthrough mode it sees the very program
the reference sees, which is what an exact comparison needs.

Each process writes its own shard, trace-<worker>.jsonl: `main` without
xdist, `gw0`, `gw1`, ... under pytest-xdist (the controller writes none).

Every recorded op carries the role it ran in (roles.py): the test's own
code, assertEqual/assert_close, input makers, setup or teardown.

Give the options with a path as one word (`--testmap-out=DIR`): pytest's
early rootdir search takes a separate absolute value for a path argument,
which moves the rootdir and so every node id (docs/trace-format.md).
"""

from __future__ import annotations

import os
import time

import pytest

from . import FORMAT_NAME, FORMAT_VERSION
from .shard_writer import ShardWriter


def pytest_addoption(parser):
    group = parser.getgroup("testmap", "testmap trace recording")
    group.addoption("--testmap-out", default=None, help="directory for trace shards")
    group.addoption("--testmap-recorder", default="cpp", choices=("cpp", "reference", "none"))
    group.addoption("--testmap-tracer-lib", default=None, help="path of libtestmap_tracer.so")
    group.addoption("--testmap-compile-logs", action="store_true", help="capture TORCH_LOGS graphs")
    group.addoption("--testmap-logs-lib", default=None, help="path of libtestmap_torch_logs.so")
    group.addoption("--testmap-skip-file", default=None,
                    help="deselect the node ids listed in this file (resuming after a crash)")
    group.addoption("--testmap-passthrough-mode", action="store_true",
                    help="run tests under a do-nothing TorchDispatchMode (validation only)")


def pytest_configure(config):
    # The run starts here, before the recorder loads torch: an untraced
    # pytest session pays torch's import inside it too (in its first test
    # file's collection), so a plan learning from both kinds of process
    # compares like with like (docs/plan.md, fixed costs).
    start = time.time()
    out = config.getoption("--testmap-out")
    if not out:
        return
    is_xdist_controller = (
        config.pluginmanager.hasplugin("xdist")
        and getattr(config.option, "numprocesses", None)
        and not hasattr(config, "workerinput")
    )
    if is_xdist_controller:
        return  # the workers trace; the controller only schedules
    config.pluginmanager.register(TracePlugin(config, out, start), "testmap-trace")


def pytest_collection_modifyitems(config, items):
    path = config.getoption("--testmap-skip-file")
    if not path:
        return
    with open(path, encoding="utf-8") as f:
        done = {line.rstrip("\n") for line in f if line.strip()}
    keep = [item for item in items if item.nodeid not in done]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item.nodeid in done])
        items[:] = keep


def _make_recorder(config):
    kind = config.getoption("--testmap-recorder")
    if kind == "cpp":
        from .cpp_recorder import CppRecorder

        lib = config.getoption("--testmap-tracer-lib") or os.environ.get("TESTMAP_TRACER_LIB")
        if not lib:
            raise pytest.UsageError("--testmap-recorder=cpp needs --testmap-tracer-lib")
        from .cpp_recorder import TracerVersionMismatch

        try:
            return CppRecorder(lib)
        except (TracerVersionMismatch, OSError) as e:
            # A usage error: pytest prints the message and exits with 4,
            # nothing is loaded, nothing crashes.
            raise pytest.UsageError(f"testmap tracer: {e}") from None
    if kind == "reference":
        from .reference_recorder import ReferenceRecorder

        return ReferenceRecorder()
    return None


def _outcome(reports) -> str:
    """One outcome per test from its phase reports (pytest's own rules)."""
    setup, call, teardown = (reports.get(p) for p in ("setup", "call", "teardown"))
    if setup is not None and setup.failed:
        return "error"
    if setup is not None and setup.skipped:
        return "xfailed" if hasattr(setup, "wasxfail") else "skipped"
    outcome = "passed"
    if call is not None:
        if call.skipped:
            outcome = "xfailed" if hasattr(call, "wasxfail") else "skipped"
        elif call.failed:
            outcome = "failed"
        elif hasattr(call, "wasxfail"):
            outcome = "xpassed"
    if teardown is not None and teardown.failed and outcome in ("passed", "xpassed", "skipped"):
        return "error"
    return outcome


class TracePlugin:
    def __init__(self, config, out, start):
        self.config = config
        self.worker = getattr(config, "workerinput", {}).get("workerid", "main")
        os.makedirs(out, exist_ok=True)
        self.recorder = _make_recorder(config)
        if hasattr(self.recorder, "note_fatal_signals"):
            # What killed this process, for `testmap trace` (core/trace_format.h).
            self.recorder.note_fatal_signals(os.path.join(out, f"signal-{self.worker}.txt"))
        from .roles import RoleTracker, RoleWrappers

        self.passthrough = config.getoption("--testmap-passthrough-mode")
        self.roles = RoleTracker([self.recorder])
        self.role_wrappers = None
        if self.recorder is not None:
            # Before collection, so that test modules importing make_tensor
            # or assert_close bind the wrappers.
            self.role_wrappers = RoleWrappers(self.roles)
            self.role_wrappers.install_functions()
        self.logs = None
        if config.getoption("--testmap-compile-logs"):
            from .torch_logs_capture import TorchLogsCapture

            lib = config.getoption("--testmap-logs-lib") or os.environ.get("TESTMAP_LOGS_LIB")
            if not lib:
                raise pytest.UsageError("--testmap-compile-logs needs --testmap-logs-lib")
            self.logs = TorchLogsCapture(lib, lambda: self.roles.current)
            self.raw_logs = open(os.path.join(out, f"torch-logs-{self.worker}.log"), "a", encoding="utf-8")
        self._hook_compile()
        self.shard = ShardWriter(os.path.join(out, f"trace-{self.worker}.jsonl"))
        from .run_metadata import collect

        extra = {"worker": self.worker, "compile_logs": self.logs is not None}
        if self.recorder is not None and hasattr(self.recorder, "build_info"):
            extra["tracer"] = {"path": self.recorder.path, **self.recorder.build_info}
        self.shard.write({
            "type": "run", "format": FORMAT_NAME, "version": FORMAT_VERSION, "worker": self.worker,
            "metadata": collect(str(config.rootpath), self.recorder.name if self.recorder else "none", extra,
                                start),
        })
        self.reports = {}

    def _hook_compile(self):
        # The C++ recorder pauses where torch hides calls from a
        # TorchDispatchMode: torch.compile's tracing (the compiled artifact's
        # calls are kept) and Tensor._make_subclass. See mode_pauses.py.
        if self.recorder is not None and self.recorder.name == "cpp":
            from . import mode_pauses

            mode_pauses.install(self.recorder)

    # What collecting cost this process and how many tests pytest built of
    # each file, deselected ones included: the `collection` record
    # (docs/trace-format.md). A plan learns from it what collecting a file
    # costs apart from running its tests (mapper/plan/fixed_costs.h), above
    # all from a traced `pytest --collect-only`.
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection(self, session):
        self.collection_start = time.time()
        self.collected = {}

    def pytest_collectstart(self, collector):
        if isinstance(collector, pytest.Module):  # a file that builds no test counts 0
            self.collected.setdefault(collector.nodeid, 0)

    def pytest_itemcollected(self, item):
        path = item.nodeid.split("::", 1)[0]
        self.collected[path] = self.collected.get(path, 0) + 1

    def pytest_collection_finish(self, session):
        self.shard.write({
            "type": "collection", "start": self.collection_start, "end": time.time(),
            "files": self.collected, "worker": self.worker,
        })
        if self.role_wrappers is not None:
            self.role_wrappers.install_classes()
            self.role_wrappers.sweep_modules()

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.reports = {}
        start = time.time()
        self.shard.write({"type": "begin", "nodeid": item.nodeid, "worker": self.worker, "time": start})
        if self.role_wrappers is not None:
            self.role_wrappers.install_classes()  # modules a test imported late
        if self.logs is not None:
            self.logs.start()
        self.roles.start()
        if self.recorder is not None:
            self.recorder.start()
        passthrough = None
        if self.passthrough:
            from .reference_recorder import PassthroughMode

            passthrough = PassthroughMode()
            passthrough.__enter__()
        try:
            return (yield)
        finally:
            if passthrough is not None:
                passthrough.__exit__(None, None, None)
            ops = []
            if self.recorder is not None:
                self.recorder.stop()
                ops = [dict(r, evidence="eager") for r in self.recorder.take()]
            self.roles.stop()
            record = {
                "type": "test",
                "nodeid": item.nodeid,
                "outcome": _outcome(self.reports),
                "duration": round(sum(r["duration"] for r in self._phases().values()), 6),
                "phases": self._phases(),
                "ops": ops,
                "worker": self.worker,
                "start": start,
            }
            if self.logs is not None:
                runs = self.logs.stop()
                if runs:
                    parsed = self.logs.parse_runs(runs, item.nodeid)
                    record["ops"] += parsed["ops"]
                    if parsed.get("diagnostics"):
                        record["compile_diagnostics"] = parsed["diagnostics"][:20]
                    text = "".join(t for _, t in runs)
                    self.raw_logs.write(f"### testmap test {item.nodeid}\n{text}")
                    self.raw_logs.flush()
            self.shard.write(record)

    # Phases and their roles. The recorder runs from the start of setup to
    # the end of teardown (pytest_runtest_protocol above).
    def _in_role(self, role):
        previous = self.roles.enter(role)
        try:
            return (yield)
        finally:
            self.roles.enter(previous)

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_setup(self, item):
        return (yield from self._in_role("setup"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_call(self, item):
        from .roles import wrap_unittest_phases

        wrap_unittest_phases(item, self.roles)
        return (yield from self._in_role("test"))

    @pytest.hookimpl(wrapper=True)
    def pytest_runtest_teardown(self, item, nextitem):
        return (yield from self._in_role("teardown"))

    def _phases(self):
        return {
            when: {"outcome": r.outcome, "duration": round(r.duration, 6)}
            for when, r in self.reports.items()
        }

    def pytest_runtest_logreport(self, report):
        self.reports[report.when] = report

    def pytest_unconfigure(self, config):
        self.shard.close()
