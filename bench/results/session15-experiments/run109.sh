cd .exp
lscpu -e | head -20
cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list /sys/devices/system/cpu/cpu1/topology/thread_siblings_list
nvcc -O3 -arch=sm_90 -Xcompiler "-O3 -march=sapphirerapids" -o hyb2 hyb2.cu -lpthread 2>&1 | grep -i error
echo "== chain3 alone"; taskset -c 0 ./chain3 136 1024 | tail -2
for c in 1 2 3 4 5 6 7 8; do taskset -c $c sh -c 'while :; do :; done' & done
sleep 0.5
echo "== chain3 with 8 busy loops on cpus 1-8"; taskset -c 0 ./chain3 136 1024 | tail -2
kill %1 %2 %3 %4 %5 %6 %7 %8 2>/dev/null; wait 2>/dev/null
for fl in 2 1 5 9 7; do echo "== flags $fl"; timeout 60 ./hyb2 1e8 136 1024 4 128 8 4096 $fl; done
