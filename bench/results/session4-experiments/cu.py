"""Minimal CUDA driver API harness over ctypes: load PTX, launch (optionally cooperative or with
cluster dims), copy results back."""
import ctypes as C, sys
cu = C.CDLL("libcuda.so.1")
def ck(r, what=""):
    if r != 0:
        s = C.c_char_p(); cu.cuGetErrorString(r, C.byref(s)); raise RuntimeError(f"{what}: {r} {s.value}")
ck(cu.cuInit(0))
dev = C.c_int(); ck(cu.cuDeviceGet(C.byref(dev), 0))
ctx = C.c_void_p(); ck(cu.cuDevicePrimaryCtxRetain(C.byref(ctx), dev)); ck(cu.cuCtxSetCurrent(ctx))
def attr(a):
    v = C.c_int(); ck(cu.cuDeviceGetAttribute(C.byref(v), a, dev)); return v.value
SMS = attr(16)
def load(ptx):
    m = C.c_void_p(); ck(cu.cuModuleLoadData(C.byref(m), C.c_char_p(ptx.encode())), "load"); return m
def func(m, name):
    f = C.c_void_p(); ck(cu.cuModuleGetFunction(C.byref(f), m, name.encode()), name); return f
def alloc(n):
    p = C.c_uint64(); ck(cu.cuMemAlloc_v2(C.byref(p), n)); ck(cu.cuMemsetD8_v2(p, 0, n)); return p
def get(p, n):
    b = (C.c_ubyte * n)(); ck(cu.cuMemcpyDtoH_v2(b, p, n)); return bytes(b)
def set_smem(f, n):
    ck(cu.cuFuncSetAttribute(f, 8, n), "smem")  # MAX_DYNAMIC_SHARED_SIZE_BYTES
class LaunchAttr(C.Structure):
    _fields_ = [("id", C.c_int), ("pad", C.c_int), ("val", C.c_uint32 * 16)]
class LaunchConfig(C.Structure):
    _fields_ = [("gx", C.c_uint), ("gy", C.c_uint), ("gz", C.c_uint), ("bx", C.c_uint), ("by", C.c_uint), ("bz", C.c_uint),
                ("smem", C.c_uint), ("stream", C.c_void_p), ("attrs", C.POINTER(LaunchAttr)), ("nattrs", C.c_uint)]
def launch(f, grid, block, args, smem=0, coop=False, cluster=0):
    vals = [C.c_uint64(a.value if isinstance(a, C.c_uint64) else a) for a in args]
    ptrs = (C.c_void_p * len(vals))(*[C.cast(C.byref(v), C.c_void_p) for v in vals])
    attrs = []
    if coop:
        a = LaunchAttr(); a.id = 2; a.val[0] = 1; attrs.append(a)  # COOPERATIVE
    if cluster:
        a = LaunchAttr(); a.id = 4; a.val[0] = cluster; a.val[1] = 1; a.val[2] = 1; attrs.append(a)  # CLUSTER_DIMENSION
        ck(cu.cuFuncSetAttribute(f, 14, 1), "nonportable")  # NON_PORTABLE_CLUSTER_SIZE_ALLOWED
    arr = (LaunchAttr * max(1, len(attrs)))(*attrs)
    cfg = LaunchConfig(grid, 1, 1, block, 1, 1, smem, None, arr, len(attrs))
    ck(cu.cuLaunchKernelEx(C.byref(cfg), f, ptrs, None), "launch")
    ck(cu.cuCtxSynchronize(), "sync")
