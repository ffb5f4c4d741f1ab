#!/usr/bin/env bash
# The GPU engine with the speculation on the device or on the CPU (OCTAL_GPU_CHAIN), on games
# with small tables, proving their periods: time, heaps, period and fnv1a64 of each run, both
# chains in one command (compare only within it). Usage: bench/gpu-chain.sh OCTAL [CODE...]
set -u
octal=$1; shift
codes=${*:-.1777 .1077 .104}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for code in $codes; do
    for chain in host device; do
        start=$(date +%s%N)
        out=$(OCTAL_GPU_CHAIN=$chain timeout 300 "$octal" solve "$code" --check-period --gpu --json --quiet 2>/dev/null)
        end=$(date +%s%N)
        summary=$(python3 -c 'import json,sys; j=json.loads(sys.argv[1]); p=j.get("period") or {}; print(j["n"], p.get("period"), p.get("preperiod"), j["fnv1a64"])' "$out" 2>/dev/null || echo "failed")
        ms=$(( (end - start) / 1000000 ))
        printf '%s %s %d.%03d s %s\n' "$code" "$chain" $((ms / 1000)) $((ms % 1000)) "$summary"
    done
done
