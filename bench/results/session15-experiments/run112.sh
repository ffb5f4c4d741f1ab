cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb3 hyb3.cu -lpthread 2>&1 | grep -i error
run() { echo "== $*"; timeout 60 ./hyb3 "$@" | grep -v "^T1 [0-9]:"; }
PROBE=1 run 1e8 136 1024 0 128 8 4096 1
run 1e8 136 1024 2 128 8 4096 9 128
run 1e8 136 1024 2 128 8 4096 5 128
run 1e8 136 1024 3 128 8 4096 5 128
run 1e8 136 768 2 128 8 4096 5 128
run 1e8 136 1024 0 128 8 4096 9
