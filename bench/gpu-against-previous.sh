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
        python3 -c 'import json, sys
a = sys.argv
r = json.load(open(a[1]))
print("%-8s round %s: %.2f M verified values/s, %.2f s, fnv1a64 %s" % (
    a[2], a[3], r["values_per_second"] / 1e6, r["seconds"], r["fnv1a64"]))' \
            "$out/$which-$round.json" "$which" "$round" | tee -a "$out/summary.txt"
    done
done
