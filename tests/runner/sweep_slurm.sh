#!/usr/bin/env bash
# scripts/sweep_slurm.sh covers the grid exactly once: every task of its default --array (and of
# an array numbered from 0) is run with the variables Slurm sets, the shards are merged
# (sweep-merge refuses a duplicate or a missing run), and the merged table is the table of the
# whole sweep run in one piece, run for run.
#   sweep_slurm.sh JOINTLAB SOURCE_DIR
set -euo pipefail
exe=$(realpath "$1")
src=$2
script=$src/scripts/sweep_slurm.sh
spec=$src/assets/sweeps/drive_gains.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$exe" sweep "$spec" --out "$work/whole" > /dev/null

range=$(sed -n 's/^#SBATCH --array=\([0-9]*-[0-9]*\)$/\1/p' "$script")
[[ -n $range ]] || { echo "FAIL: no '#SBATCH --array=A-B' line in $script"; exit 1; }
for array in "$range" "0-2"; do
  first=${array%-*}
  last=${array#*-}
  rm -rf "$work/out"
  for (( id = first; id <= last; id++ )); do
    SLURM_ARRAY_TASK_ID=$id SLURM_ARRAY_TASK_MIN=$first SLURM_ARRAY_TASK_MAX=$last \
      SLURM_ARRAY_TASK_COUNT=$(( last - first + 1 )) SLURM_CPUS_PER_TASK=1 JOINTLAB=$exe \
      "$script" "$spec" "$work/out" > /dev/null
  done
  shards=$(ls -d "$work"/out/shard-* | wc -l)
  [[ $shards == $(( last - first + 1 )) ]] || { echo "FAIL: --array=$array made $shards shards"; exit 1; }
  "$exe" sweep-merge "$work"/out/shard-* --out "$work/out/all" > /dev/null
  # Each run number once, all of them: the shards' own tables, not only the merge's word.
  runs=$(tail -n +2 "$work/whole/results.csv" | wc -l)
  seen=$(tail -q -n +2 "$work"/out/shard-*/results.csv | cut -d, -f1 | sort -n | uniq | wc -l)
  total=$(tail -q -n +2 "$work"/out/shard-*/results.csv | wc -l)
  [[ $seen == "$runs" && $total == "$runs" ]] || {
    echo "FAIL: --array=$array: $total rows, $seen distinct runs, the grid has $runs"; exit 1; }
  cmp "$work/whole/results.csv" "$work/out/all/results.csv" || {
    echo "FAIL: --array=$array: the merged table differs from the whole sweep's"; exit 1; }
  echo "ok: --array=$array: $shards shards cover the $runs runs once"
done

# Not in a job array: refused with the way to submit it.
if "$script" "$spec" "$work/x" 2> "$work/err"; then echo "FAIL: ran outside a job array"; exit 1; fi
grep -q "submit with sbatch --array=1-N" "$work/err" || { echo "FAIL: no hint"; cat "$work/err"; exit 1; }
echo "ok: outside an array it says how to submit"
