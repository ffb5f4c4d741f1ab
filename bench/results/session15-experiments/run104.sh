cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb hyb.cu -lpthread || exit 1
./hyb 1e8 136 1024 2 16
./hyb 1e8 200 1024 2 16
./hyb 1e8 200 1024 3 32
./hyb 1e8 136 2048 4 16
./hyb 1e9 200 1024 3 16
