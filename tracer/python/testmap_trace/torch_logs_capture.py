"""Per-test capture of TORCH_LOGS graph artifacts, parsed by the C++
parser (libtestmap_torch_logs.so, tracer/torch_logs_parser.h).

The artifacts are switched on through torch._logging.set_logs, since
TORCH_LOGS is read at import and the plugin runs after torch may have been
imported. The captured text is formatted exactly as torch formats it for
stderr (its own formatter, so TORCH_LOGS_FORMAT applies): the parser
therefore sees what a user would paste from a real log.
"""

from __future__ import annotations

import ctypes
import json
import logging

ARTIFACTS = ("aot_graphs", "post_grad_graphs")


class _Collect(logging.Handler):
    def __init__(self, formatter, role_of):
        super().__init__(level=logging.DEBUG)
        self.setFormatter(formatter)
        self.role_of = role_of
        self.lines: list[tuple[str, str]] | None = None  # (role, text)

    def emit(self, record):
        if self.lines is None:
            return
        try:
            self.lines.append((self.role_of(), self.format(record)))
        except Exception:  # a log record must never fail the test
            pass


class TorchLogsCapture:
    """`role_of()` names the role current when a record is logged (a graph
    is logged when it is compiled, during the call that compiles it)."""

    def __init__(self, parser_lib: str, role_of=lambda: "test"):
        import torch
        import torch._logging

        from torch._logging._internal import log_registry

        torch._logging.set_logs(**{a: True for a in ARTIFACTS})
        # A cache hit skips compilation, and with it the post-grad graph log.
        import torch._functorch.config
        import torch._inductor.config

        torch._inductor.config.fx_graph_cache = False
        torch._functorch.config.enable_autograd_cache = False
        torch_logger = logging.getLogger("torch")
        formatter = next((h.formatter for h in torch_logger.handlers if h.formatter), None)
        if formatter is None:
            formatter = torch._logging._internal.TorchLogsFormatter()
        self._handler = _Collect(formatter, role_of)
        # torch gives each registered logger (torch, torch._functorch._aot_autograd,
        # torch._inductor, ...) its own handler and stops propagation there, so
        # an artifact record reaches exactly one of them: listen on all.
        for qname in log_registry.get_log_qnames():
            logging.getLogger(qname).addHandler(self._handler)
        lib = ctypes.CDLL(parser_lib)
        lib.testmap_parse_torch_logs.restype = ctypes.c_void_p
        lib.testmap_parse_torch_logs.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p]
        lib.testmap_torch_logs_free.argtypes = [ctypes.c_void_p]
        self._lib = lib

    def start(self) -> None:
        self._handler.lines = []

    def stop(self) -> list[tuple[str, str]]:
        """The text logged since start(), as (role, text) runs of lines."""
        lines, self._handler.lines = self._handler.lines or [], None
        runs: list[tuple[str, list[str]]] = []
        for role, text in lines:
            if not runs or runs[-1][0] != role:
                runs.append((role, []))
            runs[-1][1].append(text)
        return [(role, "\n".join(texts) + "\n") for role, texts in runs]

    def parse_runs(self, runs: list[tuple[str, str]], source: str) -> dict:
        """{"ops": [...], "diagnostics": [...]} for stop()'s runs, each op
        with the role of the run it was logged in; diagnostics count lines
        in the whole text."""
        whole = self.parse("".join(text for _, text in runs), source)
        if len(runs) == 1:
            ops = whole["ops"]
            for op in ops:
                op["role"] = runs[0][0]
        else:
            merged = {}  # one record per (op, dtypes, device, role)
            for role, text in runs:
                for op in self.parse(text, source)["ops"]:
                    key = (op["op"], tuple(op["dtypes"]), op["device"], role)
                    if key in merged:
                        merged[key]["count"] += op["count"]
                        merged[key]["graphs"] = sorted(set(merged[key]["graphs"]) | set(op["graphs"]))
                    else:
                        merged[key] = dict(op, role=role)
            ops = list(merged.values())
        return {"ops": ops, "diagnostics": whole.get("diagnostics", [])}

    def parse(self, text: str, source: str) -> dict:
        """{"ops": [...], "diagnostics": [...]} from the C++ parser."""
        data = text.encode("utf-8", "replace")
        ptr = self._lib.testmap_parse_torch_logs(data, len(data), source.encode())
        try:
            return json.loads(ctypes.cast(ptr, ctypes.c_char_p).value)
        finally:
            self._lib.testmap_torch_logs_free(ptr)
