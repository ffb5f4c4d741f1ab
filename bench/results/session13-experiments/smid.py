# python3 smid.py smid.ptx: for a spec-like cooperative grid (one 1024-thread block an SM) with
# 83 KiB or 117 KiB of dynamic shared memory, launched while a filler kernel's 256-thread blocks
# run on another stream: how many distinct SMs its blocks land on.
import ctypes as C, sys, random, struct
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session4-experiments')
import cu
m = cu.load(open(sys.argv[1]).read())
filler, coop = cu.func(m, "filler"), cu.func(m, "coop")
out = cu.alloc(4 * cu.SMS)
s1, s2 = C.c_void_p(), C.c_void_p()
cu.ck(cu.cu.cuStreamCreate(C.byref(s1), 1)); cu.ck(cu.cu.cuStreamCreate(C.byref(s2), 1))
def launch(f, grid, block, args, smem, stream, coop_=False):
    vals = [C.c_uint64(a.value if isinstance(a, C.c_uint64) else a) for a in args]
    ptrs = (C.c_void_p * len(vals))(*[C.cast(C.byref(v), C.c_void_p) for v in vals])
    attrs = []
    if coop_:
        a = cu.LaunchAttr(); a.id = 2; a.val[0] = 1; attrs.append(a)
    arr = (cu.LaunchAttr * max(1, len(attrs)))(*attrs)
    cfg = cu.LaunchConfig(grid, 1, 1, block, 1, 1, smem, stream, arr, len(attrs))
    cu.ck(cu.cu.cuLaunchKernelEx(C.byref(cfg), f, ptrs, None), "launch")
random.seed(1)
for kib in (83, 117):
    cu.set_smem(coop, kib * 1024)
    res = []
    for trial in range(10):
        for _ in range(8):
            launch(filler, cu.SMS * random.randint(1, 6), 256, [random.randint(20000, 400000)], 0, s1)
        launch(coop, cu.SMS, 1024, [out], kib * 1024, s2, True)
        cu.ck(cu.cu.cuCtxSynchronize(), "sync")
        ids = struct.unpack(f'{cu.SMS}I', cu.get(out, 4 * cu.SMS))
        res.append(len(set(ids)))
    print(f"{kib} KiB a block: distinct SMs of {cu.SMS} blocks in 10 trials: {res}")
