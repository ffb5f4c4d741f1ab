#!/bin/bash
# Session 12 run 67: the one-SM front prototype (front.cu.in) against the committed engine's
# speculation (octal bench --gpu), Officers, one run.
cd .carry-gpu/front
nvidia-smi -L | tee -a $OUT/res.txt
timeout 60 python3 drv.py 1048576 64 front-256-768.ptx 2>&1 | tee -a $OUT/res.txt
timeout 240 python3 drv.py 16777216 64,128 front-256-768.ptx front-256-512.ptx front-128-512.ptx front-512-1024.ptx front-256-1024.ptx 2>&1 | tee -a $OUT/res.txt
cd ../..
target/release/octal bench .6 --gpu -n 2^24 --cpu-max 2^20 --json $OUT/bench.json 2>&1 | tail -4 | tee -a $OUT/res.txt
python3 -c "import json;r=json.load(open('$OUT/bench.json'))['rows'][-1];print('baseline spec', r['gpu_speculated_per_second']/1e6, 'verified', r['gpu_verified_per_second']/1e6, 'rounds heaps', r['gpu_heaps_per_round'])" | tee -a $OUT/res.txt
