#!/bin/bash
# Session 20 run 175: shared-memory atomics alone (atom.cu, compiled on the device).
cd .exp/s20/mb && export PATH=$PATH:/usr/local/cuda/bin && nvcc -O3 -arch=sm_90 -std=c++17 -o atom atom.cu 2>&1 | tail -3; ./atom
