cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb hyb.cu -lpthread 2>&1 | grep -i error
./hyb 1e8 200 1024 3 128 8
./hyb 1e8 200 1024 3 64 16
./hyb 1e8 200 1024 3 128 16
./hyb 1e8 200 1024 3 32 32
./hyb 1e8 136 1536 4 128 8
./hyb 1e8 200 2048 6 128 8
./hyb 1e9 200 1024 4 128 8
