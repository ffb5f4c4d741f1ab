#!/bin/bash
# Session 10, run 62: (1) an Officers --gpu run to 10^9 in a run directory interrupted (SIGINT
# at 7 s), checked, resumed and killed (SIGKILL at 5 s), checked, resumed to the end; (2) the
# unroll factors, Officers 10^9, interleaved: v256 = f56a35e (SPEC_UNROLL 4, VERIFY_UNROLL 4),
# vu8 / vu16 = VERIFY_UNROLL 8 / 16 (40 registers), vu8r / vu16r = the same held to 32 registers
# (__launch_bounds__(256, 8)), su8 / su2 = SPEC_UNROLL 8 (44 registers) / 2.
set -u
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$(timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1)" | tee -a $OUT/res.txt; }
B=.carry-gpu/octal-v256
nvidia-smi -L | tee -a $OUT/res.txt
echo "== kill and resume" | tee -a $OUT/res.txt
D=/tmp/run62; rm -rf $D
timeout -s INT 7 $B solve .6 -n 1e9 --gpu --out $D -q; echo "solve rc=$?" | tee -a $OUT/res.txt
$B check $D 2>&1 | tee -a $OUT/res.txt
timeout -s KILL 5 $B resume $D -q; echo "resume rc=$?" | tee -a $OUT/res.txt
$B check $D 2>&1 | tee -a $OUT/res.txt
timeout 150 $B resume $D --json -q > $OUT/resume.json 2> $OUT/resume.err; echo "resume rc=$?" | tee -a $OUT/res.txt
j < $OUT/resume.json | tee -a $OUT/res.txt; tail -2 $OUT/resume.err | tee -a $OUT/res.txt
$B check $D 2>&1 | tee -a $OUT/res.txt
$B status $D --json | head -c 700 | tee -a $OUT/res.txt; echo
rm -rf $D
echo "== unroll" | tee -a $OUT/res.txt
for k in 1 2; do for v in v256 vu8 vu8r vu16 vu16r su8 su2; do
r "$v" 80 .carry-gpu/octal-$v .6 -n 1e9 --gpu
done; done
