# As guess.py (passes read this round's window), but each pass updates a heap from its own chunk's
# latest values (chunks of C consecutive heaps) and the other entering heaps' values from before
# the passes (blocks iterating their chunk of the entering heaps locally).
import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')  # sim_data reads /tmp/off.b
from sim_data import D, OC, truth
W, K, R, C = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
P0 = 300000
V = truth.copy(); V[P0:] = 0
def comp(h, src):
    v = src[h[:, None] - D[None, :]] ^ OC[None, :]
    m = np.zeros((len(h), 512), bool); m[np.arange(len(h))[:, None], v] = True
    return np.argmin(m, axis=1)
p = P0; end_prev = P0
for r in range(R):
    end = p + W
    newh = np.arange(end_prev, end)
    base = V.copy()
    base[newh] = comp(newh, V)   # first pass: all from the window as it is
    cur = base.copy()
    for _ in range(K - 1):
        # a heap sees its own chunk's latest values, the other entering heaps' first-pass values
        out = np.empty(len(newh), dtype=V.dtype)
        for c0 in range((end_prev // C) * C, end, C):
            ch = newh[(newh >= c0) & (newh < c0 + C)]
            if len(ch) == 0: continue
            src = base.copy(); src[ch] = cur[ch]
            out[ch - end_prev] = comp(ch, src)
        cur[newh] = out
    V[newh] = cur[newh]
    h = np.arange(p, end)
    new = comp(h, V)
    chg = np.nonzero(new != V[p:end])[0]
    V[p:end] = new
    end_prev = end
    pn = end if len(chg) == 0 else p + chg[0] + 1
    assert (V[P0:pn] == truth[P0:pn]).all()
    p = pn
print(f"W={W} K={K} C={C}: {(p - P0) / R:.0f} heaps a round")
