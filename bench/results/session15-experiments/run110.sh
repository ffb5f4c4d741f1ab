cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb2 hyb2.cu -lpthread 2>&1 | grep -i error
for c in 12 13 14; do taskset -c $c sh -c 'while :; do :; done' & done
run() { echo "== $*"; timeout 60 ./hyb2 "$@" | grep -v "^T1"; }
run 1e8 136 1024 4 128 8 4096 9
run 1e8 136 1024 4 128 8 4096 9 128
run 1e8 136 1024 5 128 8 4096 9 96
run 1e8 200 1024 4 128 8 4096 9 128
run 1e8 200 1024 5 128 8 4096 9 64
run 1e8 136 1024 5 32 8 4096 9 96
run 1e8 136 1536 7 128 8 4096 9 96
run 1e9 136 1024 5 128 8 4096 9 96
kill %1 %2 %3 2>/dev/null
