# Rounds where each heap's near options (d <= DN) are solved within its chunk of C consecutive
# heaps (sequentially, in order: a Gauss-Seidel sweep of the chunk), from the far marks of the
# round before; sources outside the chunk read the round before. C = 0: the whole window in order.
import sys, os, numpy as np
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_here, _here + '/../session13-experiments', _here + '/../session6-experiments']
from entering import truth, P0, D, OC
W, R, DN, C = (int(x) for x in sys.argv[1:5])
near = D <= DN
Dn, OCn, Df, OCf = D[near], OC[near], D[~near], OC[~near]
def farmarks(h, src):
    v = src[h[:, None] - Df[None, :]] ^ OCf[None, :]
    m = np.zeros((len(h), 512), bool); m[np.arange(len(h))[:, None], v] = True
    return m
V = truth.copy(); V[P0:] = 0
p = P0; ps = []
for r in range(R):
    end = p + W
    h = np.arange(p, end)
    old = V.copy()
    fm = farmarks(h, old)
    new = old.copy()
    # chunk boundaries
    for i, n in enumerate(h):
        cstart = p if C == 0 else max(p, (n // C) * C)
        src = n - Dn
        vals = np.where(src >= cstart, new[src], old[src]) ^ OCn
        m = fm[i].copy(); m[vals] = True
        new[n] = np.argmin(m)
    chg = np.nonzero(new[p:end] != old[p:end])[0]
    V[p:end] = new[p:end]
    pn = end if len(chg) == 0 else p + chg[0] + 1
    assert (V[P0:pn] == truth[P0:pn]).all()
    p = pn; ps.append(p)
R0 = R // 3
print(f"W={W} DN={DN} C={C}: {(ps[-1]-ps[R0])/(R-1-R0):.0f} steady heaps a round")
