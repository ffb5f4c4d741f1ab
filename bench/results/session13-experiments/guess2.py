# As guess.py, but the K passes over the heaps entering at round r read the window as it was S
# rounds before (a helper working beside the rounds); the segment reads its own latest values.
import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')  # sim_data reads /tmp/off.b
from sim_data import D, OC, truth
W, K, R, S = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
P0 = 300000
V = truth.copy(); V[P0:] = 0
hist = [V.copy()]
def comp(h, src):
    v = src[h[:, None] - D[None, :]] ^ OC[None, :]
    m = np.zeros((len(h), 512), bool); m[np.arange(len(h))[:, None], v] = True
    return np.argmin(m, axis=1)
p = P0; end_prev = P0
for r in range(R):
    end = p + W
    newh = np.arange(end_prev, end)
    old = hist[max(0, len(hist) - 1 - S)].copy()
    for _ in range(K):
        old[newh] = comp(newh, old)
    V[newh] = old[newh]
    h = np.arange(p, end)
    new = comp(h, V)
    chg = np.nonzero(new != V[p:end])[0]
    V[p:end] = new
    end_prev = end
    pn = end if len(chg) == 0 else p + chg[0] + 1
    assert (V[P0:pn] == truth[P0:pn]).all()
    p = pn
    hist.append(V.copy()); hist = hist[-4:]
print(f"W={W} K={K} S={S}: {(p - P0) / R:.0f} heaps a round")
