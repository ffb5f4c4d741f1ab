#!/usr/bin/env bash
# The frontier runs on the GPU, one at a time, each to its target, then checked twice and saved as
# a snapshot. Every call goes on where the last one stopped: a run directory that
# exists is resumed, one that does not is restored from SNAP_DIR's checkpoint of that code where
# there is one (a checkpoint that already reaches the target ends that run), else solved from
# heap 0 (N@H: the first H heaps on the host's cores, where the device's marking engine is slower,
# then resumed on the device); each run gets at most TIMEOUT seconds a call (a killed run loses
# nothing). A finished run is checked (`octal check --rare --sample 64`) and written to
# WORK/CODE-N.snap. GPU=0 runs everything on the host's cores instead.
# Usage: [TIMEOUT=S] [SNAP_DIR=D] [GPU=0] bench/frontier.sh OCTAL WORK [CODE:N[@H][:SPACE]...]
set -u
octal=$1 work=$2; shift 2
runs=${*:-.143:2^31:range:0xfd .114:2^26 .004:2^26@2^22}
mkdir -p "$work"
gpu=(--gpu)
if [ "${GPU:-1}" = 0 ]; then gpu=(); echo "host: $(nproc) cores"; else nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; fi
timed() { # label, command...: one line with the exit status and the seconds
    local label=$1 start=$(date +%s%N); shift
    timeout "${TIMEOUT:-550}" "$@" > "$work/$label.out" 2> "$work/$label.err"
    echo "$label: exit $? after $(( ($(date +%s%N) - start) / 1000000 )) ms"
}
field() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }
for run in $runs; do
    IFS=: read -r code n kind mask <<< "$run"
    host=; [[ $n == *@* ]] && host=${n#*@} n=${n%@*}
    dir=$work/R$code space=()
    [ -n "${kind:-}" ] && space=(--space "$kind:$mask")
    if [ ! -f "$dir/checkpoint.json" ]; then
        saved=$(ls "${SNAP_DIR:-/nonexistent}"/0"$code"-*.snap 2>/dev/null | sort -V | tail -1)
        heaps=${saved##*-}; heaps=${heaps%.snap}
        if [ -n "$saved" ] && [ "$heaps" -ge $(( ${n/^/**} )) ]; then
            echo "$code: $saved already holds $heaps heaps"; continue
        fi
        if [ -n "$saved" ]; then
            timed "restore$code" "$octal" restore "$saved" --out "$dir" "${gpu[@]}"
        elif [ -n "$host" ]; then
            timed "host$code" "$octal" solve "$code" -n "$host" "${space[@]}" --out "$dir" --json -q
        fi
    fi
    if [ -f "$dir/checkpoint.json" ]; then
        timed "run$code" "$octal" resume "$dir" -n "$n" "${gpu[@]}" --json -q
    else
        timed "run$code" "$octal" solve "$code" -n "$n" "${gpu[@]}" "${space[@]}" --out "$dir" --json -q
    fi
    "$octal" status "$dir" --json > "$work/status$code.json" || continue
    field "$work/status$code.json" \
        "f\"{j['code']}: {j['n']} heaps ({j['run']['state']}, {j['run']['elapsed_seconds']:.1f} s), rare {j['sparse']['rare_count']} under {j['sparse']['mask']}, last {j['sparse']['last_rare']}, largest {j['max_value']} first at {j['max_value_at']}, fnv1a64 {j['fnv1a64']}\""
    [ "$(field "$work/status$code.json" "j['run']['state']")" = finished ] || continue
    timed "check$code" "$octal" check "$dir" --rare --sample 64 --json
    field "$work/check$code.out" "j['check']" 2>/dev/null
    timed "checkpoint$code" "$octal" checkpoint "$dir" -o "$work/0$code-$(field "$work/status$code.json" "j['n']").snap"
done
