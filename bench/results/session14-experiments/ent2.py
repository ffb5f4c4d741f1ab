# entering.py's rounds() with every round's p kept: the steady rate over rounds R0 .. R (the first
# rounds start from an empty window and run fast) and where p stood at R0.
import numpy as np
from entering import comp, truth, P0
def rounds2(W, R, enter, R0):
    V = truth.copy(); V[P0:] = 0
    hist = [V.copy()]
    p = P0; end_prev = P0; ps = []
    for _ in range(R):
        end = p + W
        newh = np.arange(end_prev, end)
        V[newh] = enter(newh, V, hist)
        h = np.arange(p, end)
        new = comp(h, V)
        chg = np.nonzero(new != V[p:end])[0]
        V[p:end] = new
        end_prev = end
        pn = end if len(chg) == 0 else p + chg[0] + 1
        assert (V[P0:pn] == truth[P0:pn]).all()
        p = pn; ps.append(p)
        hist.append(V.copy()); hist = hist[-4:]
    return (ps[-1] - ps[R0]) / (R - 1 - R0), ps[R0] - P0
