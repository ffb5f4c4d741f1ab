cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb3 hyb3.cu -lpthread 2>&1 | grep -i error
run() { echo "== $*"; timeout 60 ./hyb3 "$@" | grep -v "^T1 [0-9]:"; }
run 1e8 136 1024 0 128 8 4096 1
run 1e8 136 1024 0 128 8 4096 3
run 1e8 136 1024 1 128 8 4096 1
run 1e8 200 1024 2 128 8 4096 1 128
run 1e8 136 768 0 128 8 4096 3
run 1e8 136 1280 1 128 8 4096 3
for c in 12 13 14; do taskset -c $c sh -c 'while :; do :; done' & done
echo "with 3 busy loops"
run 1e8 136 1024 0 128 8 4096 1
run 1e8 136 1024 1 128 8 4096 3
kill %1 %2 %3 2>/dev/null
