cd .exp/s18
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,driver_version --format=csv
nvcc -O3 -arch=sm_90 -std=c++17 -o bar bar.cu 2>&1 | tail -5
./bar 2>&1 | tee $OUT/res.txt
