#!/bin/bash
# Session 20 runs 173-174: c2 with clock64 stamps (c2-stamps.diff; run 174's read with a "memory"
# clobber), rounds 300-303 of each launch, blocks 0 and 1, printed by the kernel.
OCTAL_GPU_WINDOW=3072 .exp/s20/octal-c2d solve .6 -n 2^22 --gpu --speculate-only -q > $OUT/dbg.txt 2>&1
