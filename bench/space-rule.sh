#!/usr/bin/env bash
# The space the long run takes, against another build: every game of games/ and every open class
# of the three-digit survey, at 2^18 heaps by both binaries (the space each ends on, and its
# time); where the spaces differ, at 2^22 heaps, the two alternating (two rounds each), with the
# ratio of the medians. Prints one TSV line a game.
#
#   bench/space-rule.sh NEW_OCTAL OTHER_OCTAL [HEAPS_FIRST] [HEAPS_SECOND]
set -euo pipefail
new=$1 other=$2 first=${3:-2^18} second=${4:-2^22}
root=$(cd "$(dirname "$0")/.." && pwd)
codes=$("$new" games | awk 'NR > 1 { print $2 }')
codes+=" "$(awk -F, 'NR > 1 && $2 == "open" { print $1 }' "$root/results/survey/three/survey.csv")

# Seconds and the final space of one run: "seconds kind:mask".
run() {
    local bin=$1 code=$2 n=$3
    "$bin" solve "$code" -n "$n" --keep all --json -q |
        python3 -c 'import json,sys; j=json.load(sys.stdin); s=j["sparse"]; print(j["seconds"], "%s:%s" % (s["kind"], s["mask"]))'
}

printf 'code\tspace_new\tspace_other\tseconds_new\tseconds_other\tratio_at_%s\n' "$second"
for code in $codes; do
    read -r t_new s_new < <(run "$new" "$code" "$first")
    read -r t_other s_other < <(run "$other" "$code" "$first")
    ratio=-
    if [ "$s_new" != "$s_other" ]; then
        a=() b=()
        for _ in 1 2; do
            a+=("$(run "$new" "$code" "$second" | cut -d' ' -f1)")
            b+=("$(run "$other" "$code" "$second" | cut -d' ' -f1)")
        done
        ratio=$(python3 -c "import sys; a=sorted(map(float,sys.argv[1:3])); b=sorted(map(float,sys.argv[3:5])); print('%.3f' % (sum(a)/sum(b)))" "${a[@]}" "${b[@]}")
    fi
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$code" "$s_new" "$s_other" "$t_new" "$t_other" "$ratio"
done
