#!/bin/bash
# Officers to 10^9 heaps on the GPU, verified, with two builds of octal alternating on the same
# card (the previous one, then this one, twice each):
#   octal solve .6 -n 1e9 --gpu --json -q
# Prints each run's verified values a second and fnv1a64, and the card.
# Usage: bench/gpu-against-previous.sh PREVIOUS_OCTAL OCTAL [OUT]  (OUT default $TMPDIR/gpu-vs-prev)
set -u
prev=$1
new=$2
out=${3:-${TMPDIR:-/tmp}/gpu-vs-prev}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/card.txt"
for round in 1 2; do
    for which in previous this; do
        bin=$prev
        [ "$which" = this ] && bin=$new
        "$bin" solve .6 -n 1e9 --gpu --json -q > "$out/$which-$round.json" 2> "$out/$which-$round.err"
        rate=$(grep -o '"values_per_second":[0-9.e+]*' "$out/$which-$round.json" | cut -d: -f2)
        fnv=$(grep -o '"fnv1a64":"[0-9a-f]*"' "$out/$which-$round.json" | cut -d'"' -f4)
        awk -v w="$which" -v k="$round" -v r="$rate" -v f="$fnv" 'BEGIN {
            printf "%-8s round %d: %.2f M verified values/s, fnv1a64 %s\n", w, k, r / 1e6, f }' |
            tee -a "$out/summary.txt"
    done
done
