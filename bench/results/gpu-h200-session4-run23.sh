#!/bin/bash
# Session 4, run 23: where V2's round goes per block (V2-prof), and V4 (V2 with a relaxed poll
# and one acquire fence) against V2.
set -u
X=.carry-gpu/octal-exp; E=$PWD/.carry-gpu/exp4
OCTAL_GPU_SOURCE=$E/V2-prof.cu timeout 60 $X solve .6 -n 2^24 --gpu --speculate-only -q > $OUT/prof.txt 2> $OUT/prof-err.txt
grep -c prof $OUT/prof.txt
python3 - $OUT/prof.txt <<'PY' | tee $OUT/prof-summary.txt
import sys, re, collections
rows = [tuple(map(int, m.groups())) for m in re.finditer(r"prof block (\d+) rounds (\d+) round (\d+) mark (\d+) wait (\d+) last (\d+)", open(sys.argv[1]).read())]
print(len(rows), "block-launch rows")
last = collections.Counter(); R = collections.Counter()
for b, rounds, rnd, mark, wait, l in rows: last[b] += l; R[b] += rounds
import statistics as st
for name, k in [("round", 2), ("mark", 3), ("wait", 4)]:
    v = [r[k] for r in rows]; print(name, "min", min(v), "median", st.median(v), "max", max(v))
print("blocks most often last:", [(b, round(last[b] / R[b], 3)) for b, _ in last.most_common(12)])
print("share of rounds with a last arriver counted:", sum(last.values()) / (sum(R.values()) / max(1, len(R))))
PY
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'])" 2>/dev/null || echo none; }
r() { local label="$1" env="$2" bin="$3"; shift 3
  local out; out=$(env $env timeout ${T:-40} $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
for i in 1 2; do for v in V2 V4; do
  r "$v" "OCTAL_GPU_SOURCE=$E/$v.cu" $X .6 -n 2^26 --gpu --speculate-only
done; done
