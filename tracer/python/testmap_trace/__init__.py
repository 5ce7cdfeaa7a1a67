"""testmap's pytest side: records what every test dispatched.

Use through `testmap trace -- pytest ...`, or directly:

    PYTHONPATH=tracer/python pytest -p testmap_trace.plugin \
        --testmap-out traces/ --testmap-tracer-lib build/lib/libtestmap_tracer.so

The trace format is documented in docs/trace-format.md.
"""

# The writer's copy of the trace format's name, version and roles; the one
# definition is core/trace_format.h, and tests/tracer checks they agree. The
# C++ recorder takes a role as its index in ROLES.
FORMAT_NAME = "testmap-trace"
FORMAT_VERSION = 3
ROLES = ("test", "assert", "inputs", "setup", "teardown")
__version__ = "0.1.0"
