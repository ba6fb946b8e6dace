#!/usr/bin/env bash
# Sweep throughput (issue 30): runs per second of `jointlab sweep` on a 100-run grid
# (bench/sweep_grid100.json: 100 runs of 120 steps of the 20-link chain) with --jobs 1 and
# --jobs 2, each the median of three sweeps, and a check that both give the same table.
#
#   scripts/bench_sweeps.sh [JOINTLAB] [OUT.md]
set -euo pipefail
app=${1:-build/app/jointlab}
out=${2:-}
here=$(cd "$(dirname "$0")/.." && pwd)
spec=$here/bench/sweep_grid100.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

rate() {  # jobs -> median runs/s of three sweeps
  local rates=()
  for i in 1 2 3; do
    line=$("$app" sweep "$spec" --jobs "$1" --out "$work/j$1" 2>/dev/null)
    rates+=("$(sed -n 's/.*s (\([0-9.]*\) runs\/s).*/\1/p' <<<"$line")")
  done
  printf '%s\n' "${rates[@]}" | sort -g | sed -n 2p
}
r1=$(rate 1)
r2=$(rate 2)
cmp -s "$work/j1/results.csv" "$work/j2/results.csv" || { echo "bench_sweeps: --jobs 2 gave another table" >&2; exit 1; }
speedup=$(awk -v a="$r1" -v b="$r2" 'BEGIN { printf "%.2f", b / a }')
header="Sweep throughput, bench/sweep_grid100.json (100 runs x 120 steps, chain20), median of 3, $(nproc) cores, $(date +%Y-%m-%d), $(git -C "$here" rev-parse --short HEAD 2>/dev/null || echo '?'):"
table="| --jobs | runs/s | speed-up |
|---:|---:|---:|
| 1 | $r1 | 1.00 |
| 2 | $r2 | $speedup |"
printf '%s\n\n%s\n' "$header" "$table"
[[ -n $out ]] && printf '%s\n\n%s\n' "$header" "$table" >"$out"
exit 0
