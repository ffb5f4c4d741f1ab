# Rounds (Jacobi over the window W) with K extra Jacobi passes over the heaps entering the window
# before they join; heaps per round.
import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')  # sim_data reads /tmp/off.b
from sim_data import D, OC, truth
W, K, R = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
P0 = 300000
V = truth.copy(); V[P0:] = 0
def comp(h):
    v = V[h[:, None] - D[None, :]] ^ OC[None, :]
    m = np.zeros((len(h), 512), bool); m[np.arange(len(h))[:, None], v] = True
    return np.argmin(m, axis=1)
p = P0; end_prev = P0
for r in range(R):
    end = p + W
    newh = np.arange(end_prev, end)
    for _ in range(K):
        V[newh] = comp(newh)
    h = np.arange(p, end)
    new = comp(h)
    chg = np.nonzero(new != V[p:end])[0]
    V[p:end] = new
    end_prev = end
    pn = end if len(chg) == 0 else p + chg[0] + 1
    assert (V[P0:pn] == truth[P0:pn]).all()
    p = pn
print(f"W={W} K={K}: {(p - P0) / R:.0f} heaps a round")
