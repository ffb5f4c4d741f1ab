#!/bin/bash
# The committed GPU engine (run 7's kernels) against the CPU: every game in games/ to 10^6, every
# code of the test tables to 2^18 (20 s each at most; a refusal or timeout is listed as such).
set -u
B=.carry-gpu/octal
j() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['engine'], d['fnv1a64'], d['n'])" 2>/dev/null || echo "none"; }
run() {
  local args="$1"
  g=$(timeout 20 $B solve $args --gpu --json -q 2>>$OUT/gpu-stderr.txt | j)
  c=$(timeout 40 $B solve $args --json -q 2>/dev/null | j)
  local v="DIFFER"; [ "$g" = "none" ] && v="gpu-refused-or-timeout"
  [ "${g#* }" = "${c#* }" ] && [ "$g" != "none" ] && v="equal"
  echo "$args | $v | gpu: $g | cpu: $c" | tee -a $OUT/check.txt
}
for f in games/*.toml; do run "$(basename $f .toml) -n 1e6"; done
for c in 0.014 0.017 0.034 0.044 0.045 0.051 0.055 0.1137 0.11377 0.115 0.117 0.125 0.126 0.127 0.134 0.135 0.136 0.137 0.1377 0.141 0.142 0.143 0.146 0.15 0.152 0.153 0.156 0.161 0.162 0.165 0.167 0.17 0.171 0.172 0.173 0.176 0.206 0.226 0.34 0.356 0.36 0.373 0.375 0.4 0.44 0.45 0.52 0.524 0.53 0.54 0.6 0.64 0.644 0.74 0.76 0.77 4.007 4.024 4.102 4.12 4.304 4.324 4.444 4.726 4.766 4.777; do
  run "$c -n 2^18"
done
grep -c equal $OUT/check.txt; grep -c DIFFER $OUT/check.txt
