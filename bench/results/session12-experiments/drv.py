# Session 12. Run from .carry-gpu/front (cu.py beside it) or from here (session 4's cu.py). front.cu.in is the
# template of runs 76-80 (macros pick the variants); front-v6.patch gives that of runs 73-75, front-unrolled.patch
# that of run 72 (run 71: the same, helpers reading constant memory). Runs the front prototype on Officers from heap
# 2^17 to N, checks every code against the CPU's (codes24.u8), prints rates. Usage: python3 drv.py N H ptx...
import sys, time, numpy as np, ctypes as C
sys.path.insert(0, __file__.rsplit('/', 1)[0])
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session4-experiments')  # cu.py, session 4's harness
from cu import *
here = __file__.rsplit('/', 1)[0]
truth = np.fromfile(here + '/codes24.u8', np.uint8)
N = int(sys.argv[1]); Hs = [int(x) for x in sys.argv[2].split(',')]
P0 = 1 << 17
for ptx in sys.argv[3:]:
    m = load(open(ptx).read()); f = func(m, 'front')
    for H in Hs:
        codes = alloc(N + 64); cand = alloc(16 * N); ctl = alloc(8 * 64); farbits = alloc(32 * N)
        src = np.ascontiguousarray(truth[:P0])
        ck(cu.cuMemcpyHtoD_v2(codes, src.ctypes.data_as(C.c_void_p), P0))
        p0w = np.array([P0], np.uint64)
        ck(cu.cuMemcpyHtoD_v2(C.c_uint64(ctl.value + 8 * 32), p0w.ctypes.data_as(C.c_void_p), 8))
        print(f"launch {ptx} H={H} N={N}", flush=True)
        t = time.time(); launch(f, 1 + H, 1024, [codes, cand, farbits, ctl, P0, N], coop=True); dt = time.time() - t
        got = np.frombuffer(get(codes, N), np.uint8)
        c = np.frombuffer(get(ctl, 8 * 16), np.uint64)
        bad = np.nonzero(got[P0:N] != truth[P0:N])[0]
        rounds = int(c[1]); heaps = N - P0
        print(f"{ptx} H={H} N={N}: {heaps / dt / 1e6:.1f} M heaps/s ({dt:.3f} s), rounds {rounds}, "
              f"{heaps / max(rounds, 1):.1f} heaps a round, {int(c[5]) / max(rounds, 1):.0f} cycles a round, "
              f"thread0 compute {int(c[8]) / max(rounds, 1):.0f} barrier {int(c[9]) / max(rounds, 1):.0f} fence {int(c[10]) / max(rounds, 1):.0f} after-A {int(c[12]) / max(rounds, 1):.0f} (to q {int(c[14]) / max(rounds, 1):.0f}) barrier-B {int(c[13]) / max(rounds, 1):.0f} max-thread compute {int(c[11]) / max(rounds, 1):.0f}; "
              f"exact {int(c[2])} guess {int(c[3])} front spins {int(c[4])} helper spins {int(c[6])} err {int(c[7])}; "
              f"{'ALL EQUAL' if len(bad) == 0 else f'{len(bad)} DIFFER, first at heap {P0 + bad[0]}'}", flush=True)
        for p in (codes, cand, farbits, ctl): cu.cuMemFree_v2(p)
