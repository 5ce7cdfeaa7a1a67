"""Writing trace shards (docs/trace-format.md). Reading them is the C++
trace reader's job (core/trace_reader.h): `testmap ingest`, `plan`, `trace`.

Crash safety comes from the write order, not from cleanup code that a
crashing process would never run: a `begin` line is written and flushed
before a test starts, its `test` line after it ends. A shard that ends with
a `begin` (or has a `begin` followed by another process's `run` line) names
the test that took the process down.
"""

from __future__ import annotations

import json
import os



class ShardWriter:
    def __init__(self, path: str):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        # Append: a restarted xdist worker (or a resumed run) must never
        # truncate what an earlier process wrote.
        self.path = path
        self._f = open(path, "a", encoding="utf-8")

    def write(self, record: dict) -> None:
        self._f.write(json.dumps(record, separators=(",", ":")) + "\n")
        # Flush to the OS per record: an abort() or SIGKILL of this process
        # then loses nothing already written.
        self._f.flush()

    def close(self) -> None:
        self._f.close()
