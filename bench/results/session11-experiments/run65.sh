#!/bin/bash
# Session 11 run 65: where the fixed time of a small GPU run goes (trace build).
B=$PWD/target/release/octal
export OCTAL_TRACE=1
nvidia-smi -L
t() { echo "== $*"; /usr/bin/time -f "wall %e s, rss %M kB" "$@" 2>&1 | grep -v "^\[trace\].*block proved" ; }
t $B gpu-info
t $B gpu-info
t env CUDA_CACHE_DISABLE=1 $B solve .6 -n 1e6 --gpu
t $B solve .6 -n 1e6 --gpu
t $B solve .6 -n 1e6 --gpu
t $B solve .6 -n 1e6
t $B solve .6 -n 1e7 --gpu
python3 - <<'P'
import ctypes, time, subprocess
src = subprocess.run(["target/release/octal","codegen",".6","--cuda"],capture_output=True).stdout
for name in ("libnvrtc.so.13","/usr/local/cuda/lib64/libnvrtc.so.13"):
    try: lib = ctypes.CDLL(name); break
    except OSError as e: print(e)
for i in range(2):
    t=time.time(); prog = ctypes.c_void_p()
    lib.nvrtcCreateProgram(ctypes.byref(prog), src, b"k.cu", 0, None, None)
    opts=[b"--gpu-architecture=compute_90", b"-default-device"]
    r = lib.nvrtcCompileProgram(prog, 2, (ctypes.c_char_p*2)(*opts))
    print("nvrtc compile_90 rc", r, "%.3f s" % (time.time()-t))
P
nproc; lscpu | grep "Model name"
