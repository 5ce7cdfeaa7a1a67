"""Writing and reading trace shards (docs/trace-format.md).

Crash safety comes from the write order, not from cleanup code that a
crashing process would never run: a `begin` line is written and flushed
before a test starts, its `test` line after it ends. A shard that ends with
a `begin` (or has a `begin` followed by another process's `run` line) names
the test that took the process down.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from . import FORMAT_NAME, FORMAT_VERSION


class TraceFormatError(ValueError):
    """A trace shard that cannot be read; the message names file and line."""


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


@dataclass
class Shard:
    path: str
    runs: list = field(default_factory=list)  # the `run` records
    tests: list = field(default_factory=list)  # `test` records, crashed ones synthesized


def crashed_record(begin: dict, reason: str) -> dict:
    return {
        "type": "test",
        "nodeid": begin["nodeid"],
        "outcome": "crashed",
        "crash": {"reason": reason},
        "phases": {},
        "duration": None,
        "ops": [],
        "worker": begin.get("worker"),
    }


def read_shard(path: str) -> Shard:
    """Reads one shard; a `begin` that is never finished becomes a crashed
    test record. Raises TraceFormatError naming file and line."""
    shard = Shard(path)
    pending = None  # the begin record of the test in flight
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.readlines()
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as e:
            if lineno == len(lines) and not line.endswith("\n"):
                # A write cut short by the crash itself: the last line only.
                break
            raise TraceFormatError(f"{path}:{lineno}: not a JSON record ({e.msg})") from None
        if not isinstance(rec, dict) or "type" not in rec:
            raise TraceFormatError(f"{path}:{lineno}: record without a `type` field")
        kind = rec["type"]
        if kind == "run":
            if rec.get("format") != FORMAT_NAME or rec.get("version") != FORMAT_VERSION:
                raise TraceFormatError(
                    f"{path}:{lineno}: format {rec.get('format')!r} version {rec.get('version')!r}, "
                    f"this reader knows {FORMAT_NAME!r} version {FORMAT_VERSION}"
                )
            if pending is not None:
                shard.tests.append(crashed_record(pending, "process ended during the test"))
                pending = None
            shard.runs.append(rec)
        elif kind == "begin":
            if pending is not None:
                shard.tests.append(crashed_record(pending, "process ended during the test"))
            pending = rec
        elif kind == "test":
            if pending is not None and pending["nodeid"] == rec["nodeid"]:
                pending = None
            shard.tests.append(rec)
        else:
            raise TraceFormatError(f"{path}:{lineno}: unknown record type {kind!r}")
    if pending is not None:
        shard.tests.append(crashed_record(pending, "process ended during the test"))
    return shard


def read_dir(directory: str) -> list[Shard]:
    return [
        read_shard(os.path.join(directory, name))
        for name in sorted(os.listdir(directory))
        if name.startswith("trace-") and name.endswith(".jsonl")
    ]


def tests_by_nodeid(directory: str) -> dict:
    """nodeid -> test record over all shards of a trace directory."""
    return {t["nodeid"]: t for shard in read_dir(directory) for t in shard.tests}
