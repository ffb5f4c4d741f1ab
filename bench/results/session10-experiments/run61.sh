#!/bin/bash
# Session 10, run 61: (1) .16's period proved with --gpu; (2) an Officers --gpu run to 2^28 in a
# run directory interrupted (SIGINT, then SIGKILL on resume), checked, resumed to the end; (3)
# verify's block size (VERIFY_THREADS 256 = f56a35e, 128, 64, 32), Officers 10^9, interleaved.
set -u
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
r() { local label="$1" t="$2" bin="$3"; shift 3
  local out; out=$( { /usr/bin/time -f "wall %e s, max rss %M kB" timeout $t $bin solve "$@" --json -q 2>$OUT/err.tmp; } 2>$OUT/time.tmp | j)
  echo "$label | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(cat $OUT/time.tmp)" | tee -a $OUT/res.txt; }
B=.carry-gpu/octal-v256
nvidia-smi -L | tee -a $OUT/res.txt
echo "== period" | tee -a $OUT/res.txt
timeout 120 $B solve .16 --check-period --gpu --json -q > $OUT/p16.json 2> $OUT/p16.err; echo "rc=$?" | tee -a $OUT/res.txt
python3 -c "import json; d=json.load(open('$OUT/p16.json')); print({k:d.get(k) for k in ['engine','n','period','preperiod','fnv1a64','values_per_second']}, {k:v for k,v in d.items() if 'period' in k})" 2>&1 | tee -a $OUT/res.txt
tail -3 $OUT/p16.err | tee -a $OUT/res.txt
echo "== kill and resume" | tee -a $OUT/res.txt
D=/tmp/run61; rm -rf $D
timeout -s INT 7 $B solve .6 -n 2^28 --gpu --out $D -q; echo "solve rc=$?" | tee -a $OUT/res.txt
$B check $D 2>&1 | tee -a $OUT/res.txt
timeout -s KILL 6 $B resume $D -q; echo "resume rc=$?" | tee -a $OUT/res.txt
$B check $D 2>&1 | tee -a $OUT/res.txt
timeout 120 $B resume $D --json -q > $OUT/resume.json 2> $OUT/resume.err; echo "resume rc=$?" | tee -a $OUT/res.txt
j < $OUT/resume.json | tee -a $OUT/res.txt; tail -2 $OUT/resume.err | tee -a $OUT/res.txt
$B check $D 2>&1 | tee -a $OUT/res.txt
$B status $D --json | head -c 600 | tee -a $OUT/res.txt; echo
rm -rf $D
echo "== verify block size" | tee -a $OUT/res.txt
for k in 1 2; do for t in 256 128 64 32; do
r "verify threads $t" 80 .carry-gpu/octal-v$t .6 -n 1e9 --gpu
done; done
