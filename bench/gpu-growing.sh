#!/usr/bin/env bash
# The GPU engine against the host's cores on games whose rare values keep coming: each game to N
# heaps on the GPU, then that run directory resumed for the next STRETCH heaps twice, on the
# host's cores (`resume --engine auto`, a copy) and on the GPU (`resume --gpu`); time, values
# per second and fnv1a64 of each (compare only within one command); with PREVIOUS=OCTAL2, that
# binary resumes a third copy on the GPU too; with ROUNDS=R, the resumes are repeated R times, each
# round starting one later in the order (a run's time depends on the one before it).
# Usage: [TIMEOUT=S] [PREVIOUS=OCTAL2] [ROUNDS=R] bench/gpu-growing.sh OCTAL N STRETCH [CODE...]
# (each run at most S seconds, default 550)
set -u
octal=$1 n=$2 stretch=$3; shift 3
codes=${*:-.14 .04 .004 .114 .143 .1777}
work=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "host: $(nproc) cores"
run() { # label, command...
    local label=$1; shift
    local start end out ms
    start=$(date +%s%N)
    out=$(timeout "${TIMEOUT:-550}" "$@" --json --quiet 2>"$work/err")
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    python3 - "$label" "$ms" "$out" "$work/err" <<'PY'
import json, sys
label, ms, out, err = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
try:
    j = json.loads(out)
except ValueError:
    print(f"{label}: failed after {ms / 1000:.1f} s: {open(err).read().strip()[-300:]}")
    sys.exit()
sp = j.get("sparse") or {}
print(f"{label}: {ms / 1000:.3f} s, n {j['n']}, fnv1a64 {j['fnv1a64']}, engine {j['engine']}, "
      f"rare {sp.get('rare_count')} (mask {sp.get('mask')}), last rare {sp.get('last_rare')}, "
      f"max {j.get('max_value')} at {j.get('max_value_at')}")
PY
    grep -h 'gpu:' "$work/err" | sed "s/^/    /"
}
for code in $codes; do
    run "$code gpu to $n" "$octal" solve "$code" -n "$n" --gpu --out "$work/base$code"
    to=$((n + stretch))
    sides=(cpu gpu ${PREVIOUS:+prev})
    for round in $(seq 0 $(( ${ROUNDS:-1} - 1 ))); do
        for k in "${!sides[@]}"; do
            side=${sides[$(( (k + round) % ${#sides[@]} ))]}
            rm -rf "$work/$side$code" && cp -r "$work/base$code" "$work/$side$code"
            case $side in
            cpu) run "$code cpu $n..$to" "$octal" resume "$work/cpu$code" -n "$to" --engine auto ;;
            gpu) run "$code gpu $n..$to" "$octal" resume "$work/gpu$code" -n "$to" --gpu ;;
            prev) run "$code gpu (previous) $n..$to" "$PREVIOUS" resume "$work/prev$code" -n "$to" --gpu ;;
            esac
        done
    done
done
rm -rf "$work"
