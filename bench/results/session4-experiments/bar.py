import sys, struct, time
sys.path.insert(0, __file__.rsplit('/', 1)[0])
from cu import *
m = load(open(__file__.rsplit('/', 1)[0] + '/bar.ptx').read())
g = func(m, "gridbar"); c = func(m, "clusterbar"); d = func(m, "clusterdsm")
ctl = alloc(4096); out = alloc(8 * 4096)
R = 20000
def cycles(blocks):
    v = struct.unpack(f"{blocks}Q", get(out, 8 * blocks)); return max(v) / R, min(v) / R
print("SMs", SMS)
for warm in range(2):
    ck(cu.cuMemsetD8_v2(ctl, 0, 4096)); launch(g, SMS, 1024, [ctl, out, R, 0], coop=True)
for blocks in [SMS, 66, 32, 16, 8, 2]:
    for var in [0, 1, 2, 3]:
        ck(cu.cuMemsetD8_v2(ctl, 0, 4096)); ck(cu.cuMemsetD8_v2(C.c_uint64(ctl.value + 64), 0xff, 256))
        ck(cu.cuMemsetD8_v2(out, 0, 8 * 4096))
        t = time.time(); launch(g, blocks, 1024, [ctl, out, R, var], coop=True); dt = time.time() - t
        mx, mn = cycles(blocks)
        print(f"gridbar blocks {blocks:4d} variant {var}: {mx:8.0f} cycles a round (min block {mn:8.0f}), {dt / R * 1e6:.2f} us a round wall")
for cl in [2, 4, 8, 16]:
    for grid in sorted({cl, (SMS // cl) * cl}):
        for f, name in [(c, "clusterbar"), (d, "clusterdsm")]:
            try:
                ck(cu.cuMemsetD8_v2(out, 0, 8 * 4096))
                t = time.time(); launch(f, grid, 1024, [out, R], cluster=cl); dt = time.time() - t
                mx, mn = cycles(grid)
                print(f"{name} cluster {cl:2d} grid {grid:4d}: {mx:8.0f} cycles a round (min {mn:8.0f}), {dt / R * 1e6:.2f} us wall")
            except Exception as e:
                print(f"{name} cluster {cl} grid {grid}: {e}")
