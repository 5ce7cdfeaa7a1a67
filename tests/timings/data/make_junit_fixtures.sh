#!/usr/bin/env bash
# Regenerates the JUnit fixtures by running real pytest on a small throwaway
# suite, once per junit family. Usage: make_junit_fixtures.sh [python]
# The durations in the fixtures are real (sleeps), so tests compare them with
# tolerances.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
python=${1:-$here/../../../.venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/pkg"
touch "$work/pkg/__init__.py"
cat > "$work/pkg/test_sample.py" <<'PY'
import time
import pytest

def test_function():
    time.sleep(0.05)

@pytest.mark.parametrize("n", [1, 2])
def test_param(n):
    time.sleep(0.02 * n)

class TestMath:
    def test_slow(self, record_property):
        record_property("feature", "linalg")
        time.sleep(0.2)

    def test_fails(self):
        time.sleep(0.01)
        assert 1 == 2

    @pytest.mark.skip(reason="not on this device")
    def test_skipped(self):
        pass

    @pytest.mark.xfail(reason="known bug")
    def test_xfail(self):
        time.sleep(0.03)
        assert False

@pytest.fixture
def broken():
    raise RuntimeError("setup failed")

def test_error(broken):
    pass
PY
for family in xunit1 xunit2; do
  (cd "$work" && "$python" -m pytest -q -p no:cacheprovider -o junit_family=$family \
     --junitxml="$here/pytest_$family.xml" pkg/test_sample.py >/dev/null || true)
done
# Ground truth for the node ids the reader rebuilds: what pytest itself prints.
(cd "$work" && "$python" -m pytest -q -p no:cacheprovider --collect-only pkg/test_sample.py |
   grep '::' > "$here/pytest_nodeids.txt")
# The tracer's own timings: a trace shard from its pytest plugin (no op
# recorder needed for timings).
(cd "$work" && PYTHONPATH="$here/../../../tracer/python" "$python" -m pytest -q -p no:cacheprovider \
   -p testmap_trace.plugin --testmap-out "$work/trace" --testmap-recorder none pkg/test_sample.py \
   >/dev/null || true)
cp "$work/trace/trace-main.jsonl" "$here/trace_shard.jsonl"
echo "wrote $here/pytest_xunit1.xml $here/pytest_xunit2.xml"
