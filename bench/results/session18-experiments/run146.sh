cd .exp/s18
nvcc -O3 -arch=sm_90 -std=c++17 -o bar2 bar2.cu 2>&1 | tail -5
./bar2 2>&1 | tee $OUT/res.txt
