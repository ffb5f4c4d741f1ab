#!/usr/bin/env bash
# A run past --keep against one that keeps every value, then carried by its checkpoint:
#   1. CODE to N heaps holding only its front and tail past KEEP, in a run directory: rate, peak
#      memory, the directory's size;
#   2. the same heaps keeping every value: rate, peak memory; the statistics at every power of two
#      must be equal;
#   3. the checkpoint of the first run (its size), resumed in a new directory to 2N heaps, against one run
#      straight to 2N holding its front and tail: the statistics at every power must be equal.
# Extra flags (such as --gpu) go to every run. Prints one line a measurement; leaves its files in
# WORK (default: a temporary directory).
#
#   bench/bounded.sh OCTAL CODE N KEEP [FLAGS...]
set -euo pipefail
octal=$(realpath "$1") code=$2 n=$3 keep=$4
shift 4
work=${WORK:-$(mktemp -d)}
mkdir -p "$work"
cd "$work"
rm -rf R R2 F.state ./*.json ./*.time

# Runs octal with the arguments, its JSON to $1.json and its peak memory (KiB) to $1.time.
timed() {
    local name=$1
    shift
    python3 - "$name" "$octal" "$@" --json -q <<'PY'
import resource, subprocess, sys
with open(sys.argv[1] + ".json", "w") as out:
    rc = subprocess.call(sys.argv[2:], stdout=out)
with open(sys.argv[1] + ".time", "w") as f:
    f.write(str(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss))
sys.exit(rc)
PY
}

fields() {
    python3 - "$@" <<'EOF'
import json, sys
for name in sys.argv[1:]:
    j = json.load(open(name + ".json"))
    rss = int(open(name + ".time").read().split()[-1]) / 1024
    print(f"{name}\tn {j['n']}\t{j['values_per_second'] / 1e6:.2f} M/s\t{j['seconds']:.1f} s\tpeak RSS {rss:.0f} MiB\tfnv1a64 {j['fnv1a64']}\tengine {j['engine']}\tbounded {j['bounded']}")
EOF
}

same_powers() {
    python3 - "$1" "$2" <<'EOF'
import json, sys
a, b = (json.load(open(f + ".json")) for f in sys.argv[1:3])
pa = {p["n"]: p for p in a["powers_of_two"]}
common = [p for p in b["powers_of_two"] if p["n"] in pa]
same = all(pa[p["n"]] == p for p in common)
print(f"{sys.argv[1]} against {sys.argv[2]}: {len(common)} powers of two, every statistic equal: {same}")
sys.exit(0 if same else 1)
EOF
}

timed bounded solve "$code" -n "$n" --keep "$keep" --out R "$@"
echo "run directory: $(du -sk --exclude=values.work R | cut -f1) KiB on disk (values.work, the window: $(du -k R/values.work | cut -f1) KiB)"
timed whole solve "$code" -n "$n" --keep all "$@"
fields bounded whole
same_powers bounded whole
"$octal" checkpoint R -o F.state
twice=$(python3 -c "print(2 * int(eval('$n'.replace('^', '**'))))")
start=$(date +%s.%N)
timed carried resume F.state --out R2 -n "$twice" "$@"
echo "resumed from the checkpoint to $twice heaps in $(python3 -c "print(round($(date +%s.%N) - $start, 1))") s of wall time"
timed straight solve "$code" -n "$twice" --keep "$keep" "$@"
fields carried straight
same_powers carried straight
