#!/bin/bash
# Session 6, run 39: the asynchronous pass + check, instrumented (ctl words per launch).
set -u
N=.carry-gpu/octal-async
sumctl() { python3 -c "
import sys,re
L=[list(map(int,re.findall(r'\d+',l))) for l in open('$OUT/err.tmp') if l.startswith('ctl [')]
if not L: print('no ctl'); sys.exit()
s=[sum(x[i] for x in L) for i in range(8)]
print(f'launches {len(L)} steps {s[1]} restarts {s[2]} check_s {s[3]/1e9:.3f} changes {s[4]} passes {s[5]} avg_pass_ns {s[6]/max(s[5],1):.0f} fresh {s[7]}')
"; }
r() { local env="$1"; shift
  local out; out=$(env $env OCTAL_GPU_DEBUG=1 timeout ${T:-40} $N solve "$@" --json -q 2>$OUT/err.tmp | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], round(d['values_per_second']))" 2>/dev/null)
  echo "$env | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(sumctl)" | tee -a $OUT/res.txt; }
for w in 1000 2000 4000 8000; do T=40 r "OCTAL_GPU_WINDOW=$w" .6 -n 2^26 --gpu; done
T=40 r "OCTAL_GPU_WINDOW=2000" .6 -n 1e9 --gpu
O=.carry-gpu/octal-mend; echo "old: $(timeout 60 $O solve .6 -n 2^26 --gpu --json -q 2>&1 | grep -o "gpu: spec.*")"
