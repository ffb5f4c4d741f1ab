cd .exp
st() { awk '/^cpu0 /{print $9}' /proc/stat; }
a=$(st); t0=$(date +%s.%N); taskset -c 0 ./chain3 136 1024 | tail -2; b=$(st); t1=$(date +%s.%N); echo "cpu0 steal ticks alone: $((b-a)) over $(echo "$t1-$t0" | bc) s"
for c in $(seq 1 15); do taskset -c $c sh -c 'while :; do :; done' & done; sleep 1
grep MHz /proc/cpuinfo | sort | uniq -c
a=$(st); t0=$(date +%s.%N); taskset -c 0 ./chain3 136 1024 | tail -2; b=$(st); t1=$(date +%s.%N); echo "cpu0 steal ticks with 15 busy vCPUs: $((b-a)) over $(echo "$t1-$t0" | bc) s"
awk '/^cpu[0-9]/{print $1, "steal", $9}' /proc/stat | tr '\n' ' '; echo
kill $(jobs -p) 2>/dev/null
