"""A raw stdio peer for `testmap mcp`: bytes in, JSON lines out, for what
no SDK client would send (malformed, oversized, pipelined requests)."""

import json
import queue
import subprocess
import threading

from conftest import required_env


class RawServer:
    def __init__(self, index, *extra):
        self.proc = subprocess.Popen([required_env("TESTMAP_BIN"), "mcp", "--index", index, *extra],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.lines = queue.Queue()
        self.raw_out = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self._err = []
        self._err_reader = threading.Thread(target=lambda: self._err.append(self.proc.stderr.read()),
                                            daemon=True)
        self._err_reader.start()

    def _read(self):
        for line in self.proc.stdout:
            self.raw_out.append(line)
            self.lines.put(json.loads(line))  # every stdout line is one JSON message
        self.lines.put(None)

    def send(self, data):
        if isinstance(data, dict):
            data = json.dumps(data)
        if isinstance(data, str):
            data = data.encode()
        self.proc.stdin.write(data if data.endswith(b"\n") else data + b"\n")
        self.proc.stdin.flush()

    def request(self, id, method, params=None):
        msg = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def receive(self, timeout=30):
        msg = self.lines.get(timeout=timeout)
        assert msg is not None, "the server closed stdout"
        return msg

    def close(self, timeout=30):
        """Closes stdin; the server's exit code once it has answered everything."""
        self.proc.stdin.close()
        rc = self.proc.wait(timeout=timeout)
        self._reader.join(timeout)
        return rc

    def stderr(self):
        """What the server logged (after close())."""
        self._err_reader.join(30)
        return b"".join(self._err).decode(errors="replace")
