#!/bin/bash
# Session 8, run 52: the host side of long runs. octal-s8 (fallocate instead of written zeros,
# growth by a quarter, the summary folded while the run goes, device-busy and host-wait timings)
# against octal-bench (a9c8261, the engine of 167cbc1) on Officers to 10^10; 10^9 first as a check.
set -u
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], round(d['values_per_second']), d.get('max_value'), d['n'], d.get('table_corrections'), round(d.get('seconds', 0), 2))" 2>/dev/null || echo none; }
nvidia-smi -L | tee $OUT/res.txt
echo "dirty_ratio $(cat /proc/sys/vm/dirty_ratio) background $(cat /proc/sys/vm/dirty_background_ratio)" | tee -a $OUT/res.txt
df -h /tmp | tee -a $OUT/res.txt
free -g | tee -a $OUT/res.txt
(while true; do echo "$(date +%s) $(grep -E '^(Dirty|Writeback):' /proc/meminfo | tr -s ' ' | tr '\n' ' ')"; sleep 5; done) > $OUT/meminfo.log &
M=$!
run() { # name binary n
  echo "== $1 $3 $(date +%s)" | tee -a $OUT/res.txt
  /usr/bin/time -v timeout 330 .carry-gpu/$2 solve .6 -n $3 --gpu --json -q 2>$OUT/$1.err | j | tee -a $OUT/res.txt
  grep -E "gpu: spec|Maximum resident|Elapsed|error" $OUT/$1.err | tee -a $OUT/res.txt
}
run new9 octal-s8 1e9
run new10 octal-s8 1e10
run old10 octal-bench 1e10
kill $M
