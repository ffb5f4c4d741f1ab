#!/usr/bin/env bash
# A GPU run against the host's cores, from heap 0: for each CODE:N, `octal solve CODE -n N --gpu`,
# then the same run on the host's cores, stopped at RATIO times the GPU run's wall (a CPU run not
# done then shows the GPU at least RATIO times faster). Prints each run's wall, exit status,
# fnv1a64 and the GPU run's `gpu:` line (a failed run's last line); with PREVIOUS=OCTAL2 that build's GPU run comes between.
# Usage: [PREVIOUS=OCTAL2] [TIMEOUT=S] bench/gpu-vs-cores.sh OCTAL RATIO CODE:N [CODE:N ...]
# (each GPU run at most S seconds, default 300)
set -u
octal=$1 ratio=$2; shift 2
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader || true
echo "host: $(nproc) cores"
work=$(mktemp -d)
run() { # label, seconds, binary, code, n, flags...
    local label=$1 limit=$2 bin=$3 code=$4 n=$5; shift 5
    local start ms rc
    start=$(date +%s%N)
    timeout "$limit" "$bin" solve "$code" -n "$n" "$@" --json -q >"$work/out" 2>"$work/err"
    rc=$?
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    echo "$ms" >"$work/ms"
    printf '%s %s %s: %s s, exit %s, fnv1a64 %s %s\n' "$code" "$n" "$label" \
        "$(awk -v ms="$ms" 'BEGIN { printf "%.2f", ms / 1000 }')" "$rc" \
        "$(grep -o '"fnv1a64":"[0-9a-f]*"' "$work/out" | head -1 | cut -d'"' -f4)" \
        "$(if [ "$rc" = 0 ]; then grep -h 'gpu:' "$work/err" | head -1; else tail -1 "$work/err"; fi)"
}
for spec in "$@"; do
    code=${spec%%:*} n=${spec##*:}
    run "GPU" "${TIMEOUT:-300}" "$octal" "$code" "$n" --gpu
    gpu_ms=$(cat "$work/ms")
    [ -n "${PREVIOUS:-}" ] && run "GPU, previous build" "${TIMEOUT:-300}" "$PREVIOUS" "$code" "$n" --gpu
    limit=$(awk -v ms="$gpu_ms" -v r="$ratio" 'BEGIN { printf "%d", ms * r / 1000 + 1 }')
    run "$(nproc) cores" "$limit" "$octal" "$code" "$n"
done
rm -rf "$work"
