#!/bin/bash
# Session 20 run 176: start-up of 4.9's binary (octal-r19e) on a freshly started machine.
B=.exp/s19/octal-r19e; for i in 1 2; do /usr/bin/time -f "gpu-info %e s" $B gpu-info > /dev/null; done 2>&1; for n in 30000 1e6 1e6 1e6 1e7; do /usr/bin/time -f "solve -n $n --gpu: %e s wall %U user" $B solve .6 -n $n --gpu -q --json 2>&1 >/dev/null | tail -2; done; /usr/bin/time -f "solve -n 40000 cpu: %e s" $B solve .6 -n 40000 -q --json 2>&1 > /dev/null | tail -1; nproc
