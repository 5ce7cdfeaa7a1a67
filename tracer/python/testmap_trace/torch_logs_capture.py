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
    def __init__(self, formatter):
        super().__init__(level=logging.DEBUG)
        self.setFormatter(formatter)
        self.lines: list[str] | None = None

    def emit(self, record):
        if self.lines is None:
            return
        try:
            self.lines.append(self.format(record))
        except Exception:  # a log record must never fail the test
            pass


class TorchLogsCapture:
    def __init__(self, parser_lib: str):
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
        self._handler = _Collect(formatter)
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

    def stop(self) -> str:
        lines, self._handler.lines = self._handler.lines or [], None
        return "\n".join(lines) + ("\n" if lines else "")

    def parse(self, text: str, source: str) -> dict:
        """{"ops": [...], "diagnostics": [...]} from the C++ parser."""
        data = text.encode("utf-8", "replace")
        ptr = self._lib.testmap_parse_torch_logs(data, len(data), source.encode())
        try:
            return json.loads(ctypes.cast(ptr, ctypes.c_char_p).value)
        finally:
            self._lib.testmap_torch_logs_free(ptr)
