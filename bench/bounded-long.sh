#!/usr/bin/env bash
# A long bounded run carried by its checkpoint, against the run straight through, side by side
# on two GPUs of one host (one after the other where the host has one):
#   first device:  octal solve CODE -n N/2 --out R --gpu; octal checkpoint R -o F.state;
#                  octal resume F.state --out R2 -n N --gpu
#   second device: octal solve CODE -n N --out S --gpu
# Prints each run's rate, peak memory and the run directory's size on disk (sampled every 10 s:
# the largest and the last), the checkpoint's size, and whether every statistic at every power
# of two is equal.
#
#   bench/bounded-long.sh OCTAL CODE N [WORK]
set -euo pipefail
octal=$(realpath "$1") code=$2 n=$3
work=${4:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
rm -rf R R2 S F.state ./*.json ./*.time ./*.du
half=$(python3 -c "print(int(eval('$n'.replace('^', '**'))) // 2)")
devices=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)

# Runs octal on device $2 with the arguments: JSON to $1.json, peak memory (KiB) to $1.time, the
# largest size (KiB) of its run directory $3 to $1.du.
run() {
    local name=$1 device=$2 dir=$3
    shift 3
    (while sleep 10; do du -sk "$dir" 2>/dev/null | cut -f1; done > "$name.du") &
    local sampler=$!
    CUDA_VISIBLE_DEVICES=$device python3 - "$name" "$octal" "$@" --json -q <<'PY'
import resource, subprocess, sys
with open(sys.argv[1] + ".json", "w") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out)
with open(sys.argv[1] + ".time", "w") as f:
    f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)
PY
    kill "$sampler"
}

carried() {
    run first 0 R solve "$code" -n "$half" --out R --gpu
    "$octal" checkpoint R -o F.state
    echo "checkpoint at $half heaps: $(du -k F.state | cut -f1) KiB"
    run resumed 0 R2 resume F.state --out R2 -n "$n" --gpu
}
straight() {
    run straight $((devices > 1 ? 1 : 0)) S solve "$code" -n "$n" --out S --gpu
}
if [ "$devices" -gt 1 ]; then
    carried &
    first=$!
    straight
    wait "$first"
else
    carried
    straight
fi

python3 - first resumed straight <<'EOF'
import json, sys
runs = {}
for name in sys.argv[1:]:
    j = json.load(open(name + ".json"))
    rss = int(open(name + ".time").read()) / 1024
    sizes = [int(x) / 1024 for x in open(name + ".du").read().split()] or [0]
    runs[name] = j
    print(f"{name}\tn {j['n']}\t{j['values_per_second'] / 1e6:.2f} M/s\t{j['seconds']:.1f} s\t"
          f"peak RSS {rss:.0f} MiB\tdirectory at most {max(sizes):.0f} MiB, at the end {sizes[-1]:.0f} MiB\tbounded {j.get('bounded')}\t"
          f"fnv1a64 {j['fnv1a64']}")
ends = {p["n"]: p for p in runs["resumed"]["powers_of_two"]}
common = [p for p in runs["straight"]["powers_of_two"] if p["n"] in ends]
same = all(ends[p["n"]] == p for p in common)
print(f"resumed against straight: {len(common)} powers of two, every statistic equal: {same}")
sys.exit(0 if same else 1)
EOF
