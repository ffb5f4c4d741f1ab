import sys, struct
sys.path.insert(0, __file__.rsplit('/', 1)[0])
from cu import *
m = load(open(__file__.rsplit('/', 1)[0] + '/mark.ptx').read())
m0 = func(m, "m0"); m1 = func(m, "m1")
SMEM = 1024 * 8 * 4 + 32 * 8 * 4 + (1584 + 160) * 8 + 65536
for f in (m0, m1): set_smem(f, SMEM)
out = alloc(8 * 2048); R = 2000
def run(f, args, label):
    ck(cu.cuMemsetD8_v2(out, 0, 8 * 2048))
    launch(f, SMS, 1024, [out, R] + args, smem=SMEM)
    v = struct.unpack(f"{SMS}Q", get(out, 8 * SMS))
    print(f"{label}: {max(v)} cycles a round (min {min(v)})", flush=True)
run(m0, [832, 31], "warm")
for near in (832, 416, 200):
    run(m0, [near, 31], f"m0 near {near} 31 heaps (V2 marking)")
    run(m0, [near, 1], f"m0 near {near} 1 heap")
    run(m1, [near, 0], f"m1 near {near} options constant")
    run(m1, [near, 1], f"m1 near {near} options shared")
