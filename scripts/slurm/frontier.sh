#!/bin/bash
# A step of a frontier campaign as a SLURM job: `octal frontier CAMPAIGN --for DURATION`
# takes the campaign's games toward their targets, one game a GPU of the job (--gres), or one
# game at a time on the cores without a GPU, and stops cleanly before the job's time limit.
#
#   CAMPAIGN=results/frontier/campaign.toml sbatch frontier.sh
#   sbatch --dependency=afterany:<job id> frontier.sh                # the next step
#
# Requeue and time limits: the campaign's folder holds each game's checkpoint and report
# (written every two minutes and when the run stops) and its run directory (work/), so the
# next job, a resubmission or a requeued job goes on where each game stopped, here or on any
# host that sees the folder. DURATION (FOR) defaults to the job's time left less a tenth (at
# most 10 minutes), so the checkpoints are written before SLURM ends the job; a job killed
# without warning (a node failure, `scontrol requeue`) loses at most the heaps since the
# run directory's last save. A game that reached its target or proved a period is skipped.
# octal gives its games the GPUs 0, 1, ... (CUDA_VISIBLE_DEVICES): where SLURM does not
# confine a job to its GPUs (cgroup ConstrainDevices), take whole nodes (--exclusive).
#
#SBATCH --job-name=octal-frontier
#SBATCH --cpus-per-task=8
#SBATCH --time=12:00:00
#SBATCH --requeue
#SBATCH --open-mode=append
##SBATCH --gres=gpu:1          # a GPU host: one game a GPU (gpu:4 runs four games at once)
set -euo pipefail

OCTAL=${OCTAL:-octal}                               # the octal binary
CAMPAIGN=${CAMPAIGN:-results/frontier/campaign.toml}
FOR=${FOR:-}                                        # e.g. 25m; empty: the time left less a tenth
DEVICES=${DEVICES:-}                                # GPUs to use (empty: every GPU of the job)

# The job's time left in seconds ([D-]HH:MM:SS, MM:SS; empty when unlimited or unknown).
time_left() {
    local left days=0 seconds=0 part
    left=$(squeue -h -j "${SLURM_JOB_ID:-}" -o %L 2>/dev/null) || return 0
    case $left in *[0-9]:[0-9]*) ;; *) return 0 ;; esac
    if [[ $left == *-* ]]; then days=${left%%-*}; left=${left#*-}; fi
    IFS=: read -r -a parts <<< "$left"
    for part in "${parts[@]}"; do seconds=$((seconds * 60 + 10#$part)); done
    echo $((days * 86400 + seconds))
}
if [ -z "$FOR" ]; then
    left=$(time_left)
    if [ -n "$left" ]; then
        margin=$((left / 10 < 600 ? left / 10 : 600))
        FOR=$((left - margin))s
    fi
fi

echo "frontier: $CAMPAIGN${FOR:+ for $FOR} (job ${SLURM_JOB_ID:-} on $(hostname), $(date -Is))"
exec "$OCTAL" frontier "$CAMPAIGN" ${FOR:+--for "$FOR"} ${DEVICES:+--devices "$DEVICES"}
