#!/bin/bash
# A survey as a SLURM job array: task K of N computes shard K/N of the survey of every octal
# code of up to DIGITS digits into the directory PREFIX-K; survey-merge.sh then writes the
# tables of the whole survey into PREFIX. Edit the #SBATCH lines (or give them to sbatch) and
# set the parameters in the environment:
#
#   DIGITS=4 PREFIX=four sbatch --array=0-31 survey-array.sh      # prints the array's job id
#   PREFIX=four sbatch --dependency=afterok:<array job id> survey-merge.sh
#
# The array's indices run from 0 to N-1 (SHARDS=N when a task is submitted on its own).
#
# Requeue and time limits: each game's record is written as it finishes, so a task that runs
# again finds its directory and resumes it (`octal survey PREFIX-K`), redoing only the games
# it was computing. SLURM requeues a task by itself after a node failure (--requeue), or by
# hand: `scontrol requeue <array job id>_K`. A task that reaches its time limit is ended as
# TIMEOUT and not requeued: requeue it by hand, or give it a longer --time, or a smaller
# MAX_N. A task that was requeued after it ended (failed, cancelled, timed out) leaves the
# merge's afterok never satisfied: `scontrol update JobId=<merge job id>
# Dependency=afterany:<array job id>` (the merge itself refuses a missing or unfinished shard).
#
#SBATCH --job-name=octal-survey
#SBATCH --array=0-31
#SBATCH --cpus-per-task=2
#SBATCH --time=04:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
##SBATCH --gres=gpu:1          # with GPU=1 in the environment: compute on the task's GPU
set -euo pipefail

OCTAL=${OCTAL:-octal}              # the octal binary
DIGITS=${DIGITS:-4}                # codes of up to DIGITS digits after the point
PREFIX=${PREFIX:-survey}           # shard K goes to PREFIX-K
MAX_N=${MAX_N:-}                   # the heap budget a game (empty: octal's default, 2^18)
GROW_TO=${GROW_TO:-}               # --grow-to: how far a game whose space holds goes on (empty: 2^25)
GPU=${GPU:-}                       # non-empty: --gpu

: "${SLURM_ARRAY_TASK_ID:?runs as a job array: sbatch --array=0-<N-1> survey-array.sh}"
SHARDS=${SHARDS:-$SLURM_ARRAY_TASK_COUNT}
k=$SLURM_ARRAY_TASK_ID
dir=$PREFIX-$k
opts=(--threads "${SLURM_CPUS_PER_TASK:-1}" --quiet ${MAX_N:+--max-n "$MAX_N"} ${GPU:+--gpu})

if [ -f "$dir/meta.json" ]; then
    # A requeued task (or a task submitted again): its directory holds the survey's digits,
    # shard and growth. With a larger MAX_N it extends the shard's open games.
    echo "survey-array: resuming $dir (job $SLURM_JOB_ID on $(hostname), $(date -Is))"
    exec "$OCTAL" survey "$dir" "${opts[@]}"
fi
echo "survey-array: shard $k/$SHARDS of $DIGITS digits into $dir" \
    "(job $SLURM_JOB_ID on $(hostname), $(date -Is))"
exec "$OCTAL" survey --digits "$DIGITS" --out "$dir" --shard "$k/$SHARDS" \
    ${GROW_TO:+--grow-to "$GROW_TO"} "${opts[@]}"
