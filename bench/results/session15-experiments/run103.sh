set -x
lscpu | head -30
grep -o 'avx512[a-z_]*' /proc/cpuinfo | sort -u | tr '\n' ' '; echo
which nvcc; nvcc --version | tail -2
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv
cd .exp
nvcc -O3 -arch=sm_90 -o pp pp.cu && timeout 120 ./pp
for i in 1 2; do ./chain3 136 512; ./chain3 200 1024; done
