#!/bin/bash
# Combines the shards PREFIX-0 .. PREFIX-(N-1) that survey-array.sh computed into the tables
# of the whole survey, PREFIX (survey.md, survey.csv, lookup.csv, survey.json: the same bytes
# as an unsharded `octal survey`). Submit it to start once every task has ended well:
#
#   PREFIX=four sbatch --dependency=afterok:<array job id> survey-merge.sh
#
# The merge fails, and writes nothing, when a shard is missing, given twice, of another
# survey or not finished: resume that shard (scontrol requeue <array job id>_K), then submit
# the merge again. It takes seconds; a merge that SLURM requeued after it began writing finds
# PREFIX not empty and fails: remove PREFIX and submit it again.
#
#SBATCH --job-name=octal-survey-merge
#SBATCH --cpus-per-task=1
#SBATCH --time=00:30:00
set -euo pipefail

OCTAL=${OCTAL:-octal}
PREFIX=${PREFIX:-survey}

shards=()
for dir in "$PREFIX"-*; do
    if [[ -d $dir && $dir =~ -[0-9]+$ ]]; then
        shards+=("$dir")
    fi
done
if [ ${#shards[@]} -eq 0 ]; then
    echo "survey-merge: no shard directories $PREFIX-K in $PWD" >&2
    exit 1
fi
echo "survey-merge: ${#shards[@]} shards into $PREFIX (job ${SLURM_JOB_ID:-}, $(date -Is))"
exec "$OCTAL" survey merge "${shards[@]}" --out "$PREFIX"
