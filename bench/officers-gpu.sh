#!/bin/bash
# The Officers GPU figure of bench/README.md: the card, its driver and SM clock, then
#   octal bench .6 --gpu -n 1e9 --cpu-max 1e8 --json OUT/bench.json
# with the SM clock, power and load sampled every 500 ms beside it (OUT/clocks.csv).
# Usage: bench/officers-gpu.sh [OCTAL [OUT]]  (default target/release/octal, $TMPDIR/officers-gpu)
set -u
octal=${1:-target/release/octal}
out=${2:-${TMPDIR:-/tmp}/officers-gpu}
mkdir -p "$out"
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
  echo "host cores: $(nproc)"; date -u +%F; } | tee "$out/machine.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,utilization.gpu --format=csv,noheader \
  -lms 500 > "$out/clocks.csv" 2>&1 &
smi=$!
"$octal" bench .6 --gpu -n 1e9 --cpu-max 1e8 --json "$out/bench.json" 2>&1 | tee "$out/bench.txt"
rc=${PIPESTATUS[0]}
kill "$smi" 2>/dev/null
wait "$smi" 2>/dev/null
# SM clock while the card was busy: lowest and highest sample.
awk -F', ' '$4 + 0 >= 90 { c = $2 + 0; if (!n++ || c < lo) lo = c; if (c > hi) hi = c }
  END { if (n) printf "SM clock at >= 90%% load: %d-%d MHz over %d samples\n", lo, hi, n }' \
  "$out/clocks.csv" | tee -a "$out/machine.txt"
exit "$rc"
