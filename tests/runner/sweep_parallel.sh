#!/usr/bin/env bash
# The GNU parallel recipe of docs/sweeps.md, run on this machine: the shards of a sweep as
# parallel jobs, merged, give the table of the sweep run in one piece.
#   sweep_parallel.sh JOINTLAB SOURCE_DIR
set -euo pipefail
exe=$(realpath "$1")
src=$2
spec=$src/assets/sweeps/baumgarte_iterations.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
"$exe" sweep "$spec" --out whole > /dev/null

# --- the recipe (docs/sweeps.md "Many machines: GNU parallel"), with -S : (this machine only)
N=4
parallel -S : --jobs 2 "$exe" sweep "$spec" --shard {}/$N --out out/shard-{} ::: $(seq $N) > /dev/null
"$exe" sweep-merge out/shard-* --out out/all
# ---

cmp whole/results.csv out/all/results.csv
echo "ok: $N shards through GNU parallel give the whole sweep's table"
