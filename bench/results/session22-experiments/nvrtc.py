# Compiles a CUDA file with NVRTC (the PyPI wheel, via LD_LIBRARY_PATH from scripts/nvrtc-env.sh) for sm_90
# and prints the log (ptxas -v included); with a second argument, writes the cubin there.
import ctypes,sys,glob,os
lib=None
for d in os.environ['LD_LIBRARY_PATH'].split(':'):
    c=glob.glob(d+'/libnvrtc.so*')
    if c: lib=ctypes.CDLL(sorted(c)[0]); break
src=open(sys.argv[1],'rb').read()
prog=ctypes.c_void_p()
r=lib.nvrtcCreateProgram(ctypes.byref(prog),src,b"k.cu",0,None,None); assert r==0
opts=[b"--gpu-architecture=sm_90",b"-lineinfo",b"--ptxas-options=-v"]
arr=(ctypes.c_char_p*len(opts))(*opts)
r=lib.nvrtcCompileProgram(prog,len(opts),arr)
n=ctypes.c_size_t(); lib.nvrtcGetProgramLogSize(prog,ctypes.byref(n)); log=ctypes.create_string_buffer(n.value); lib.nvrtcGetProgramLog(prog,log)
print("rc",r); print(log.value.decode()[:5000])
if r==0 and len(sys.argv)>2:
    lib.nvrtcGetCUBINSize(prog,ctypes.byref(n)); b=ctypes.create_string_buffer(n.value); lib.nvrtcGetCUBIN(prog,b); open(sys.argv[2],'wb').write(b.raw)
