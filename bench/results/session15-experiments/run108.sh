cd .exp
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb2 hyb2.cu -lpthread 2>&1 | grep -i error
timeout 60 ./hyb2 1e8 136 1024 4 128 8 4096
timeout 60 ./hyb2 1e8 136 1024 3 128 8 4096
timeout 60 ./hyb2 1e8 200 1024 3 128 8 4096
timeout 60 ./hyb2 1e8 136 1536 6 128 8 4096
timeout 60 ./hyb2 1e8 136 1024 4 64 16 4096
timeout 60 ./hyb2 1e8 136 1024 4 128 8 2048
