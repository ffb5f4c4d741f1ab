# The rounds (Jacobi over a window of W heaps, from heap 300 000 of Officers' true codes) with the
# heaps entering the window given their first values by `enter(newh, V, hist)` (hist: the codes
# after each of the last rounds, newest last); shared by guess2.py and guess3.py.
import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')  # sim_data reads /tmp/off.b
from sim_data import D, OC, truth
P0 = 300000

def comp(h, src):
    """The mex of heaps h from the codes `src`."""
    v = src[h[:, None] - D[None, :]] ^ OC[None, :]
    m = np.zeros((len(h), 512), bool); m[np.arange(len(h))[:, None], v] = True
    return np.argmin(m, axis=1)

def rounds(W, R, enter):
    """Heaps a round over R rounds."""
    V = truth.copy(); V[P0:] = 0
    hist = [V.copy()]
    p = P0; end_prev = P0
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
        p = pn
        hist.append(V.copy()); hist = hist[-4:]
    return (p - P0) / R
