#!/bin/bash
# Session 6, run 41: async-b, p from shared, no fence; window = margin/128ns + 64 * throttle.
set -u
sumctl() { python3 -c "
import sys,re
L=[list(map(int,re.findall(r'\d+',l))) for l in open('$OUT/err.tmp') if l.startswith('ctl [')]
if not L: print('no ctl'); sys.exit()
s=[sum(x[i] for x in L) for i in range(8)]
print(f'launches {len(L)} steps {s[1]} restarts {s[2]} check_s {s[3]/1e9:.3f} passes {s[5]} avg_pass_ns {s[6]/max(s[5],1):.0f} fresh {s[7]}')
"; }
r() { local env="$1" N="$2"; shift 2
  local out; out=$(env $env OCTAL_GPU_DEBUG=1 timeout ${T:-40} $N solve "$@" --json -q 2>$OUT/err.tmp | python3 -c "import json,sys; d=json.load(sys.stdin); print(d['fnv1a64'], round(d['values_per_second']))" 2>/dev/null)
  echo "$N | $env | $* | $out | $(grep -o 'gpu: spec.*' $OUT/err.tmp | head -1) | $(sumctl)" | tee -a $OUT/res.txt; }
for b in .carry-gpu/octal-async-b; do
for w in 32 288 1056 280 272 48; do T=40 r "OCTAL_GPU_WINDOW=$w" $b .6 -n 2^26 --gpu; done
done
O=.carry-gpu/octal-mend; echo "old: $(timeout 60 $O solve .6 -n 2^26 --gpu --json -q 2>&1 | grep -o "gpu: spec.*")"
