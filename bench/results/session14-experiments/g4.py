# python3 g4.py W K R MODE DK: as session 13's guess2.py (S = 0) with the steady rate (rounds 40 on);
# MODE oracle: the entering heaps get their true codes; MODE near: K Jacobi passes over the entering
# heaps in which only options reaching at most DK back are recomputed (the rest read this round's window once).
import sys, os, numpy as np
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_here, _here + '/../session13-experiments', _here + '/../session6-experiments']
from entering import comp, truth, D, OC
from ent2 import rounds2
W, K, R, mode, DK = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
W = int(W)
near = D <= DK
def comp_split(h, src, fixedmask):
    # marks from far options (fixed, computed once) plus near options from src
    v = src[h[:, None] - D[None, near]] ^ OC[None, near]
    m = fixedmask.copy(); m[np.arange(len(h))[:, None], v] = True
    return np.argmin(m, axis=1)
def enter(newh, V, hist):
    if mode == 'oracle':
        return truth[newh]
    old = V.copy()
    # fixed marks: options d > DK read from V (this round's window, entering heaps as they are)
    vf = V[newh[:, None] - D[None, ~near]] ^ OC[None, ~near]
    fm = np.zeros((len(newh), 512), bool); fm[np.arange(len(newh))[:, None], vf] = True
    for _ in range(K):
        old[newh] = comp_split(newh, old, fm)
    return old[newh]
r, p0 = rounds2(W, R, enter, 40); print(f"W={W} K={K} mode={mode} DK={DK}: {r:.0f} steady heaps a round (40 rounds reached +{p0})")
