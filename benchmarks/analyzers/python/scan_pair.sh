#!/usr/bin/env bash
# Two `testmap` builds, paired: cold scans (torch snapshot cached, scan
# cache empty, as scan_perftest's cold line) of the same tree by binary A
# and binary B in each round, the order alternating, and the medians of
# wall and CPU time (user + sys) and of B/A per round. Pairing cancels
# most of this machine's drift, which moves whole runs by tens of percent
# (docs/scan.md, mimalloc). Used for the allocator comparison: A a build
# of main before cmake/allocator.cmake, B one after.
# Usage: benchmarks/analyzers/python/scan_pair.sh DIR ROUNDS A B
set -euo pipefail
[ $# -eq 4 ] || { echo "usage: $0 DIR ROUNDS BINARY_A BINARY_B" >&2; exit 2; }
dir=$1 rounds=$2
a=$(realpath "$3") b=$(realpath "$4")
cache_root=${TESTMAP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/testmap}
snapshot=$(ls "$cache_root"/torch-snapshots/*.json 2>/dev/null | head -1)
[ -n "$snapshot" ] || { echo "$0: no torch snapshot in $cache_root (run a scan once)" >&2; exit 1; }
cd "$dir"
cold() {  # prints "wall cpu" of one cold scan by binary $1
  local cache
  cache=$(mktemp -d)
  # The snapshot and where each Python found torch, as after one scan
  # (without the records every scan started Python to locate torch).
  mkdir -p "$cache/torch-snapshots" && cp "$snapshot" "$cache/torch-snapshots/"
  cp "$(dirname "$snapshot")"/located-*.txt "$cache/torch-snapshots/" 2>/dev/null || true
  if ! /usr/bin/time -o "$cache/time" -f "%e %U %S" "$1" scan . --cache-dir "$cache" \
    --format jsonl >/dev/null 2>"$cache/err"; then
    echo "$0: $1 scan failed:" >&2
    cat "$cache/err" >&2
    rm -rf "$cache"
    exit 1
  fi
  awk '{print $1, $2 + $3}' "$cache/time"
  rm -rf "$cache"
}
rows=""
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then ra=$(cold "$a"); rb=$(cold "$b"); else rb=$(cold "$b"); ra=$(cold "$a"); fi
  rows+="$ra $rb"$'\n'
done
printf '%s' "$rows" | awk -v a="$a" -v b="$b" '
  { wa[NR] = $1; ca[NR] = $2; wb[NR] = $3; cb[NR] = $4; rw[NR] = $3 / $1; rc[NR] = $4 / $2
    printf "round %d: A %.2f s wall %.2f s cpu, B %.2f s wall %.2f s cpu\n", NR, $1, $2, $3, $4 }
  function med(x, n,   i, j, t, y) {
    for (i = 1; i <= n; i++) y[i] = x[i]
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (y[j] < y[i]) { t = y[i]; y[i] = y[j]; y[j] = t }
    return (n % 2) ? y[(n + 1) / 2] : (y[n / 2] + y[n / 2 + 1]) / 2 }
  END {
    printf "A %s: wall %.3f s, cpu %.3f s (medians)\n", a, med(wa, NR), med(ca, NR)
    printf "B %s: wall %.3f s, cpu %.3f s (medians)\n", b, med(wb, NR), med(cb, NR)
    printf "B/A, median of per-round ratios: wall %.3fx, cpu %.3fx\n", med(rw, NR), med(rc, NR) }'
