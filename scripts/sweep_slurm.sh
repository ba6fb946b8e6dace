#!/usr/bin/env bash
# A JointLab parameter sweep as a Slurm job array: array task i runs shard i of N of the grid
# (jointlab sweep --shard i/N) into OUT/shard-i; merge them when all are done (docs/sweeps.md):
#
#   sbatch --array=1-8 scripts/sweep_slurm.sh assets/sweeps/drive_gains.json results/gains
#   jointlab sweep-merge results/gains/shard-* --out results/gains/all
#
# N is the array's size, so give --array as one range with step 1 (1-8, or 0-7: the first task
# runs shard 1 either way); the --array line below is the default. JOINTLAB names the binary
# (default: jointlab on the PATH). Each task runs its shard on the cores Slurm gave it
# (--cpus-per-task, passed on as --jobs); the table is the same for any number of cores.
#
#SBATCH --job-name=jointlab-sweep
#SBATCH --array=1-4
#SBATCH --cpus-per-task=2
#SBATCH --output=jointlab-sweep-%A_%a.log
set -euo pipefail

if (( $# != 2 )); then
  echo "usage: sbatch --array=1-N $0 SPEC.json OUT_DIR" >&2
  exit 64
fi
spec=$1
out=$2
jointlab=${JOINTLAB:-jointlab}

: "${SLURM_ARRAY_TASK_ID:?not in a Slurm job array: submit with sbatch --array=1-N}"
first=${SLURM_ARRAY_TASK_MIN:?}
last=${SLURM_ARRAY_TASK_MAX:?}
count=$(( last - first + 1 ))
if [[ -n ${SLURM_ARRAY_TASK_COUNT:-} && $SLURM_ARRAY_TASK_COUNT != "$count" ]]; then
  echo "sweep_slurm: the array ${first}-${last} has $SLURM_ARRAY_TASK_COUNT tasks, not $count:" \
       "give --array as one range with step 1 (e.g. --array=1-$SLURM_ARRAY_TASK_COUNT)" >&2
  exit 64
fi
index=$(( SLURM_ARRAY_TASK_ID - first + 1 ))

exec "$jointlab" sweep "$spec" --shard "$index/$count" --jobs "${SLURM_CPUS_PER_TASK:-1}" \
     --out "$out/shard-$index"
