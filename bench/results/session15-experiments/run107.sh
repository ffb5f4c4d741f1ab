cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb hyb.cu -lpthread 2>&1 | grep -i error
./hyb 1e8 200 1024 3 128 8
./hyb 1e8 136 1024 4 128 8
./hyb 1e8 136 1536 6 128 8
./hyb 1e8 136 2048 8 128 8
./hyb 1e8 136 1024 0 128 8
