cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb4z hyb4.cu -lpthread 2>&1 | grep -i error
nvcc -O3 -arch=sm_90 -DW256 -Xcompiler "-O3 -march=sapphirerapids" -o hyb4y hyb4.cu -lpthread 2>&1 | grep -i error
run() { b=$1; shift; echo "== $b $*"; timeout 60 ./$b "$@" | grep -v "^T1 [0-9]:"; }
PROBE=1 run hyb4z 1e8 136 1024 0 128 8 4096 1
PROBE=1 run hyb4y 1e8 136 1024 0 128 8 4096 1
PROBE=2 run hyb4y 1e8 136 1024 2 128 8 4096 1 128
run hyb4z 1e8 136 1024 2 128 8 4096 1 128
run hyb4y 1e8 136 1024 3 128 8 4096 1 128
run hyb4z 1e8 136 1024 0 128 8 4096 1
