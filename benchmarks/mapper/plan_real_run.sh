#!/usr/bin/env bash
# Real-run check of `testmap plan`'s predictions (docs/plan.md): real test
# files, real pytest, real pytest-split as the peer.
#   1. timing runs: the files in two pytest processes of different sizes
#      (first file alone, the rest together), JUnit and .test_durations;
#   2. testmap plans K splits from the JUnit reports (fixed costs learned
#      from their suites), pytest-split (least_duration) from .test_durations;
#   3. each testmap split runs for real (`pytest $(testmap plan ... --format
#      nodeids --split k)`), timed as a whole process; `plan --report`
#      prints predicted vs measured per split.
# Usage: plan_real_run.sh ROOT PYTHON K FILE... (ROOT holds pytest.ini;
# FILEs relative to it; PYTHON has torch, pytest and pytest-split).
set -euo pipefail
root=$1 python=$2 splits=$3
shift 3
testmap=${TESTMAP:-$(dirname "$0")/../../build/bin/testmap}
testmap=$(cd "$(dirname "$testmap")" && pwd)/$(basename "$testmap")
out=$(mktemp -d)
cd "$root"
pytest() { "$python" -m pytest -q -p no:cacheprovider "$@"; }
first=$1
shift
pytest "$first" --junitxml "$out/run1.xml" --store-durations --durations-path "$out/d1.json" >/dev/null || true
pytest "$@" --junitxml "$out/run2.xml" --store-durations --durations-path "$out/d2.json" >/dev/null || true
"$python" - "$out" <<'PY'
import json, sys
d = {}
for f in ("d1.json", "d2.json"):
    d.update(json.load(open(f"{sys.argv[1]}/{f}")))
json.dump(d, open(f"{sys.argv[1]}/.test_durations", "w"), indent=2)
PY
"$testmap" plan "$out/run1.xml" "$out/run2.xml" --splits "$splits"
reports=()
for k in $(seq 1 "$splits"); do
  mapfile -t ids < <("$testmap" plan "$out/run1.xml" "$out/run2.xml" --splits "$splits" \
                       --format nodeids --split "$k")
  start=$(date +%s.%N)
  pytest "${ids[@]}" --junitxml "$out/split$k.xml" >/dev/null || true
  end=$(date +%s.%N)
  echo "split $k: ${#ids[@]} ids, whole process $(echo "$end - $start" | bc) s"
  reports+=("$out/split$k.xml")
  peer=$(pytest "$first" "$@" --splits "$splits" --group "$k" --durations-path "$out/.test_durations" \
           --collect-only 2>&1 | grep -o 'estimated duration: [0-9.]*s' || true)
  echo "  pytest-split group $k: $peer"
done
"$testmap" plan "$out/run1.xml" "$out/run2.xml" --splits "$splits" --report "${reports[@]}"
rm -rf "$out"
