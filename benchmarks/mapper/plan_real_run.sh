#!/usr/bin/env bash
# Real-run check of `testmap plan`'s predictions (docs/plan.md): real test
# files, real pytest, real pytest-split as the peer.
#   1. timing runs: the files in 3 pytest processes of 1, 2 and the rest,
#      run one after another (JUnit and .test_durations), each timed as a
#      whole;
#   2. testmap plans K splits from those JUnit reports (fixed costs learned
#      from their suites, start-up from the gaps between them), pytest-split
#      (least_duration) from .test_durations;
#   3. every split runs for real (`pytest $(testmap plan ... --format nodeids
#      --split k)`), REPEATS times (default 2: the same split twice shows the
#      run-to-run noise), each process timed as a whole; `plan --report`
#      prints predicted vs measured session per split and the error;
#   4. a summary per split: the session error (what --report compares) and
#      the whole-process error (the plan's split time, start-up included,
#      against the process timed from outside), median and range over the
#      repeats, with the load average at each run.
# Usage: [REPEATS=N] [OUT=DIR] plan_real_run.sh ROOT PYTHON K FILE... (ROOT holds
# pytest.ini; FILEs relative to it, without spaces; PYTHON has torch, pytest and
# pytest-split). TESTMAP overrides the binary (default: this checkout's
# build/bin/testmap); OUT keeps every report and log in DIR.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: [REPEATS=N] $0 ROOT PYTHON K FILE..." >&2
  exit 2
fi
root=$1 python=$2 splits=$3
shift 3
files=("$@")
repeats=${REPEATS:-2}
testmap=${TESTMAP:-$(dirname "$0")/../../build/bin/testmap}
if [ ! -x "$testmap" ]; then
  echo "$0: no testmap binary at $testmap (build it, or set TESTMAP)" >&2
  exit 2
fi
testmap=$(cd "$(dirname "$testmap")" && pwd)/$(basename "$testmap")
if [ -n "${OUT:-}" ]; then  # keep the reports and logs there
  mkdir -p "$OUT"
  out=$(cd "$OUT" && pwd)
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
: >"$out/walls"
cd "$root"
pytest() { "$python" -m pytest -q -p no:cacheprovider "$@"; }
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
# One pytest process timed from outside: "name whole_seconds load" to walls.
timed() {
  local name=$1
  shift
  local start end
  start=$(now)
  pytest "$@" --junitxml "$out/$name.xml" >"$out/$name.log" 2>&1 || true
  end=$(now)
  echo "$name $(echo "$end - $start" | bc) $(load)" >>"$out/walls"
}

# 1. Timing runs of different sizes, so that what a process pays once and
# what it pays per file can be told apart: the first file alone, the next
# two together, the rest together (fewer files: fewer processes).
n=${#files[@]}
groups=("${files[@]:0:1}")
if [ "$n" -ge 2 ]; then groups+=("${files[*]:1:2}"); fi
if [ "$n" -ge 4 ]; then groups+=("${files[*]:3}"); fi
timing_procs=${#groups[@]}
timing=()
for p in $(seq 0 $((timing_procs - 1))); do
  read -r -a mine <<<"${groups[$p]}"
  timed "timing$p" "${mine[@]}" --store-durations --durations-path "$out/d$p.json"
  timing+=("$out/timing$p.xml")
done
"$python" - "$out" "$timing_procs" <<'PY'
import json, sys
d = {}
for p in range(int(sys.argv[2])):
    d.update(json.load(open(f"{sys.argv[1]}/d{p}.json")))
json.dump(d, open(f"{sys.argv[1]}/.test_durations", "w"), indent=2)
PY
echo "== timing runs: ${#files[@]} files in $timing_procs processes"
cat "$out/walls"
echo "== testmap plan ${timing[*]##*/} --splits $splits"
"$testmap" plan "${timing[@]}" --splits "$splits"
"$testmap" plan "${timing[@]}" --splits "$splits" --format json >"$out/plan.json"
for k in $(seq 1 "$splits"); do
  "$testmap" plan "${timing[@]}" --splits "$splits" --format nodeids --split "$k" >"$out/ids$k"
  peer=$(pytest "${files[@]}" --splits "$splits" --group "$k" --durations-path "$out/.test_durations" \
           --collect-only 2>&1 | grep -o 'estimated duration: [0-9.]*s' || true)
  echo "pytest-split group $k: ${peer:-no estimate}"
done

# 3. The splits, REPEATS times, in turn.
for r in $(seq 1 "$repeats"); do
  reports=()
  for k in $(seq 1 "$splits"); do
    mapfile -t ids <"$out/ids$k"
    timed "run$r-split$k" "${ids[@]}"
    reports+=("$out/run$r-split$k.xml")
  done
  echo "== repeat $r: testmap plan ... --report"
  "$testmap" plan "${timing[@]}" --splits "$splits" --report "${reports[@]}"
  "$testmap" plan "${timing[@]}" --splits "$splits" --report "${reports[@]}" --format json \
    >"$out/report$r.json"
done

# 4. Summary.
"$python" - "$out" "$splits" "$repeats" <<'PY'
import json, statistics, sys
out, splits, repeats = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
walls = {}
for line in open(f"{out}/walls"):
    name, whole, load = line.split()
    walls[name] = (float(whole), load)
plan = json.load(open(f"{out}/plan.json"))
startup = plan["options"]["startup_seconds"]
print(f"== summary over {repeats} repeats (error = (measured - predicted) / measured)")
print(f"{'split':>5} {'pred_session':>12} {'session (min..max)':>22} {'err median (range)':>24}"
      f" {'pred_whole':>10} {'whole (min..max)':>20} {'err median (range)':>24}  load")
for k in range(1, splits + 1):
    sess, whole, loads, pred = [], [], [], None
    for r in range(1, repeats + 1):
        s = json.load(open(f"{out}/report{r}.json"))["splits"][k - 1]
        pred = s["predicted_seconds"]
        if s["measured_wall_seconds"] is not None:
            sess.append(s["measured_wall_seconds"])
        w, load = walls[f"run{r}-split{k}"]
        whole.append(w)
        loads.append(load)
    pred_whole = pred + startup
    def err(xs, p):
        if not xs:
            return "-"
        e = [(x - p) / x * 100 for x in xs]
        return f"{statistics.median(e):+6.1f}% ({min(e):+.1f}..{max(e):+.1f})"
    def rng(xs):
        if not xs:
            return "-"
        return f"{statistics.median(xs):6.2f} ({min(xs):.2f}..{max(xs):.2f})"
    print(f"{k:>5} {pred:12.2f} {rng(sess):>22} {err(sess, pred):>24}"
          f" {pred_whole:10.2f} {rng(whole):>20} {err(whole, pred_whole):>24}  {' '.join(loads)}")
PY
