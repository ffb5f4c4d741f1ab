#!/bin/bash
# Correctness and benchmark of the GPU engine on the device, in one run. Logs go to $OUT.
set -u
C=.carry-gpu
O=$C/octal
L=$OUT/log.txt
say() { echo "== $*" | tee -a $L; }
say "$(date -u) $(nproc) cores"; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv 2>&1 | tee -a $L
ls /usr/local/cuda*/lib64/libnvrtc* /usr/lib/x86_64-linux-gnu/libnvrtc* 2>/dev/null | head -3 | tee -a $L
say gpu-info; timeout 60 $O gpu-info 2>&1 | tee -a $L
say "officers 1e6 gpu"; timeout 60 $O solve .6 -n 1e6 --gpu 2>&1 | tee -a $L
say "officers 1e6 cpu"; timeout 60 $O solve .6 -n 1e6 --engine generic 2>&1 | grep -E "fnv|engine" | tee -a $L
say "test binary"; mkdir -p /work/wt-gpu/solver && ln -sfn $PWD/tests /work/wt-gpu/tests
timeout 240 $C/gpu-test --nocapture 2>&1 | tail -30 | tee -a $L
say "games 1e6: gpu vs generic fnv"
for c in $(grep -hv '^#' tests/data/sparse-spaces.tsv tests/data/unsolved.tsv | cut -f1 | grep -v code | sort -u); do
  a=$(timeout 60 $O solve $c -n 1e6 --gpu --json 2>/dev/null | python3 -c 'import json,sys;j=json.load(sys.stdin);print(j["fnv1a64"],j["engine"])' 2>&1)
  b=$(timeout 60 $O solve $c -n 1e6 --engine generic --json 2>/dev/null | python3 -c 'import json,sys;j=json.load(sys.stdin);print(j["fnv1a64"],j["engine"])' 2>&1)
  echo "$c gpu=[$a] cpu=[$b]" | tee -a $L
done
say "officers 2^26 gpu"; timeout 120 $O solve .6 -n 2^26 --gpu --json > $OUT/off26-gpu.json 2>>$L; cat $OUT/off26-gpu.json >> $L
say "officers 1e9 gpu"; timeout 200 $O solve .6 -n 1e9 --gpu --json > $OUT/off1e9-gpu.json 2>>$L; cat $OUT/off1e9-gpu.json >> $L
say "officers 2^26 cpu 16 threads"; timeout 150 $O solve .6 -n 2^26 --engine generic --json > $OUT/off26-cpu.json 2>>$L; cat $OUT/off26-cpu.json >> $L
say done
