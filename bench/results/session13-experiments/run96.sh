#!/bin/bash
# Session 13 run 96: where the driver puts a spec-like cooperative grid (smid.cu, smid.py): one
# 1024-thread block an SM with 83 or 117 KiB of shared memory, launched while another stream's
# 256-thread blocks run; distinct SMs of its 132 blocks in 10 trials each.
set -u
cd bench/results/session13-experiments
python3 smid.py smid.ptx 2>&1 | tee -a $OUT/res.txt
