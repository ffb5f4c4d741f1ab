#!/bin/bash
# Second run: the chain kernel with the tile's marks in shared memory. GPU fnv1a64 figures,
# compared on the development machine with the CPU engine's.
set -u
O=.carry-gpu/octal
L=$OUT/log2.txt
say() { echo "== $*" | tee -a $L; }
say "$(date -u)"
say "officers 1e6 gpu"; timeout 20 $O solve .6 -n 1e6 --gpu 2>&1 | tee -a $L
say "officers 2^26 gpu"; timeout 60 $O solve .6 -n 2^26 --gpu --json 2>&1 | tee -a $L
say "games 1e6 gpu"
for c in .16 .127 .014 .034 .143 .167 .161 .172 .137 .45 .356 .644 .165 4.12 .52; do
  echo "$c $(timeout 10 $O solve $c -n 1e6 --gpu --json 2>&1 | tr '\n' ' ' | head -c 400)" | tee -a $L
done
say "$(date -u) done"
