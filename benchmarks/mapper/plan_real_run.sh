#!/usr/bin/env bash
# Real-run check of `testmap plan`'s predictions (docs/plan.md): real test
# files, real pytest, real pytest-split as the peer. Each of ROUNDS rounds
# (default 1):
#   1. timing runs: the files in 3 pytest processes of 1, 2 and the rest,
#      run one after another (JUnit and .test_durations), each timed as a
#      whole;
#   2. testmap plans K splits from those JUnit reports (fixed costs learned
#      from their suites, start-up from the gaps between them), pytest-split
#      (least_duration, first round only) from .test_durations;
#   3. every split runs for real (`pytest $(testmap plan ... --format nodeids
#      --split k)`), REPEATS times (default 2: the same split twice shows the
#      run-to-run noise), each process timed as a whole; `plan --report`
#      prints predicted vs measured session per split and the error.
# Then a summary per round and split: the session error (what --report
# compares) and the whole-process error (the plan's split time, start-up
# included, against the process timed from outside), median and range over
# the repeats, with the load average at each run; and over every split of
# every round, the median and largest |error|. A round plans from timing
# runs made minutes before its splits, so each prediction meets a run at
# about the same load.
# TIMINGS=N (default 1) repeats step 1 N times, all of it the plan's input.
# COLLECT=1 adds to step 1 a traced `pytest --collect-only` of each timing
# process's files (the testmap_trace plugin, no recorder): processes that
# ran no test, whose shards' collection records tell what collecting costs
# apart from running (mapper/plan/fixed_costs.h).
# HISTORY=1 makes every earlier round's split runs part of a round's input
# too, as a CI history holds the reports of its split jobs: processes that
# ran part of a file, which tell what a test costs to run from what it
# costs to collect (mapper/plan/fixed_costs.h).
# Usage: [ROUNDS=N] [REPEATS=N] [TIMINGS=N] [COLLECT=1] [OUT=DIR] plan_real_run.sh ROOT PYTHON K
# FILE... (ROOT holds pytest.ini; FILEs relative to it, without spaces;
# PYTHON has torch, pytest and pytest-split). TESTMAP overrides the binary
# (default: this checkout's build/bin/testmap); OUT keeps every report and
# log in DIR.
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: [ROUNDS=N] [REPEATS=N] [TIMINGS=N] [OUT=DIR] $0 ROOT PYTHON K FILE..." >&2
  exit 2
fi
root=$1 python=$2 splits=$3
shift 3
files=("$@")
rounds=${ROUNDS:-1}
repeats=${REPEATS:-2}
timings=${TIMINGS:-1}
testmap=${TESTMAP:-$(dirname "$0")/../../build/bin/testmap}
if [ ! -x "$testmap" ]; then
  echo "$0: no testmap binary at $testmap (build it, or set TESTMAP)" >&2
  exit 2
fi
testmap=$(cd "$(dirname "$testmap")" && pwd)/$(basename "$testmap")
plugin=$(cd "$(dirname "$0")/../../tracer/python" && pwd)
if [ -n "${OUT:-}" ]; then  # keep the reports and logs there
  mkdir -p "$OUT"
  out=$(cd "$OUT" && pwd)
else
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
cd "$root"
pytest() { "$python" -m pytest -q -p no:cacheprovider "$@"; }
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
# One pytest process timed from outside: "name whole_seconds load" to the
# round's walls.
timed() {
  local name=$1
  shift
  local start end
  start=$(now)
  pytest "$@" --junitxml "$dir/$name.xml" >"$dir/$name.log" 2>&1 || true
  end=$(now)
  echo "$name $(awk "BEGIN { printf \"%.3f\", $end - $start }") $(load)" >>"$dir/walls"
}
# A traced `pytest --collect-only`, timed the same way; its shard is in
# "$dir/name/".
timed_collect() {
  local name=$1
  shift
  local start end
  start=$(now)
  PYTHONPATH="$plugin${PYTHONPATH:+:$PYTHONPATH}" pytest --collect-only -p testmap_trace.plugin \
    --testmap-out="$dir/$name" --testmap-recorder=none "$@" >"$dir/$name.log" 2>&1 || true
  end=$(now)
  echo "$name $(awk "BEGIN { printf \"%.3f\", $end - $start }") $(load)" >>"$dir/walls"
}

# Timing runs of different sizes, so that what a process pays once and what
# it pays per file can be told apart: the first file alone, the next two
# together, the rest together (fewer files: fewer processes).
n=${#files[@]}
groups=("${files[@]:0:1}")
if [ "$n" -ge 2 ]; then groups+=("${files[*]:1:2}"); fi
if [ "$n" -ge 4 ]; then groups+=("${files[*]:3}"); fi

dirs=()
history=()
for round in $(seq 1 "$rounds"); do
  dir=$out/round$round
  mkdir -p "$dir"
  : >"$dir/walls"
  dirs+=("$dir")
  echo "==== round $round of $rounds"
  # 1. Timing runs, TIMINGS times: a CI history holds several runs of each
  # test and process, and the plan takes their medians.
  timing=()
  for t in $(seq 1 "$timings"); do
    for p in "${!groups[@]}"; do
      read -r -a mine <<<"${groups[$p]}"
      name=timing$p
      [ "$t" -eq 1 ] || name=timing$p.$t
      timed "$name" "${mine[@]}" --store-durations --durations-path "$dir/d$p.json"
      timing+=("$dir/$name.xml")
      if [ "${COLLECT:-0}" = 1 ]; then
        timed_collect "collect${name#timing}" "${mine[@]}"
        timing+=("$dir/collect${name#timing}/trace-main.jsonl")
      fi
    done
  done
  echo "== timing runs: $n files in ${#groups[@]} processes, $timings times (name, whole s, load)"
  cat "$dir/walls"
  # 2. The plans.
  if [ "${HISTORY:-0}" = 1 ]; then timing=("${history[@]}" "${timing[@]}"); fi
  echo "== testmap plan ${timing[*]##*/} --splits $splits"
  "$testmap" plan "${timing[@]}" --splits "$splits"
  "$testmap" plan "${timing[@]}" --splits "$splits" --format json >"$dir/plan.json"
  for k in $(seq 1 "$splits"); do
    "$testmap" plan "${timing[@]}" --splits "$splits" --format nodeids --split "$k" >"$dir/ids$k"
  done
  if [ "$round" -eq 1 ]; then
    "$python" - "$dir" "${#groups[@]}" <<'PY'
import json, sys
d = {}
for p in range(int(sys.argv[2])):
    d.update(json.load(open(f"{sys.argv[1]}/d{p}.json")))
json.dump(d, open(f"{sys.argv[1]}/.test_durations", "w"), indent=2)
PY
    for k in $(seq 1 "$splits"); do
      peer=$(pytest "${files[@]}" --splits "$splits" --group "$k" \
               --durations-path "$dir/.test_durations" --collect-only 2>&1 |
               grep -o 'estimated duration: [0-9.]*s' || true)
      echo "pytest-split group $k: ${peer:-no estimate}"
    done
  fi
  # 3. The splits, REPEATS times, in turn.
  for r in $(seq 1 "$repeats"); do
    reports=()
    for k in $(seq 1 "$splits"); do
      mapfile -t ids <"$dir/ids$k"
      timed "run$r-split$k" "${ids[@]}"
      reports+=("$dir/run$r-split$k.xml")
    done
    history+=("${reports[@]}")
    echo "== round $round, repeat $r: testmap plan ... --report"
    "$testmap" plan "${timing[@]}" --splits "$splits" --report "${reports[@]}"
    "$testmap" plan "${timing[@]}" --splits "$splits" --report "${reports[@]}" --format json \
      >"$dir/report$r.json"
  done
done

# 4. Summary.
"$python" - "$splits" "$repeats" "${dirs[@]}" <<'PY'
import json, statistics, sys
splits, repeats, dirs = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
def err(xs, p):
    e = [(x - p) / x * 100 for x in xs]
    return e, f"{statistics.median(e):+6.1f}% ({min(e):+.1f}..{max(e):+.1f})" if e else "-"
def rng(xs):
    return f"{statistics.median(xs):6.2f} ({min(xs):.2f}..{max(xs):.2f})" if xs else "-"
print(f"== summary (error = (measured - predicted) / measured; median (range) over {repeats} repeats)")
print(f"{'round':>5} {'split':>5} {'pred_session':>12} {'session':>22} {'error':>24}"
      f" {'pred_whole':>10} {'whole':>20} {'error':>24}  load")
all_sess, all_whole = [], []
for n, d in enumerate(dirs, 1):
    walls = {}
    for line in open(f"{d}/walls"):
        name, whole, load = line.split()
        walls[name] = (float(whole), load)
    startup = json.load(open(f"{d}/plan.json"))["options"]["startup_seconds"]
    timing_loads = " ".join(v[1] for k, v in walls.items() if k.startswith(("timing", "collect")))
    for k in range(1, splits + 1):
        sess, whole, loads, pred = [], [], [], 0
        for r in range(1, repeats + 1):
            s = json.load(open(f"{d}/report{r}.json"))["splits"][k - 1]
            pred = s["predicted_seconds"]
            if s["measured_wall_seconds"] is not None:
                sess.append(s["measured_wall_seconds"])
            w, load = walls[f"run{r}-split{k}"]
            whole.append(w)
            loads.append(load)
        e_sess, t_sess = err(sess, pred)
        e_whole, t_whole = err(whole, pred + startup)
        all_sess += e_sess
        all_whole += e_whole
        print(f"{n:>5} {k:>5} {pred:12.2f} {rng(sess):>22} {t_sess:>24}"
              f" {pred + startup:10.2f} {rng(whole):>20} {t_whole:>24}  {' '.join(loads)}")
    print(f"      timing runs of round {n} at load {timing_loads}")
for name, e in (("session", all_sess), ("whole process", all_whole)):
    if e:
        a = [abs(x) for x in e]
        print(f"{name}: |error| median {statistics.median(a):.1f}%, largest {max(a):.1f}%,"
              f" within 5%: {sum(x <= 5 for x in a)} of {len(a)} runs")
PY
