# Marks a round if a heap's window options are cached in G groups (by distance) and a group is
# recomputed only when one of its sources changed in the round before (or the heap is fresh).
import sys, os, numpy as np
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_here, _here + '/../session13-experiments', _here + '/../session6-experiments']
from entering import comp, truth, P0, D, OC
W, R, G = (int(x) for x in sys.argv[1:4])
win = D <= W
nw = win.sum()
bounds = np.linspace(0, nw, G + 1).astype(int)
V = truth.copy(); V[P0:] = 0
p = P0; prevchg = np.zeros(len(V), bool); fresh_from = P0
tot_all = tot_cached = 0; rel = []
for r in range(R):
    end = p + W
    h = np.arange(p, end)
    new = comp(h, V)
    chgmask = new != V[p:end]
    if r > 30:
        cs = np.cumsum(np.concatenate([[0], prevchg.astype(int)]))
        for n in h[::7]:
            if n >= fresh_from: continue
            live = (n - D[:nw]) >= p  # options reading the window (not settled)
            tot_all += live.sum()
            for g in range(G):
                a, b = bounds[g], bounds[g + 1]
                sel = np.arange(a, b)[live[a:b]]
                if not len(sel): continue
                lo_s, hi_s = n - D[sel].max(), n - D[sel].min()
                if cs[hi_s + 1] - cs[lo_s] > 0: tot_cached += len(sel)
        rel.append(np.nonzero(chgmask)[0])
    prevchg[:] = False; prevchg[h[chgmask]] = True
    V[p:end] = new
    fresh_from = end
    chg = np.nonzero(chgmask)[0]
    p = end if len(chg) == 0 else p + chg[0] + 1
allrel = np.concatenate(rel)
print(f"W={W} G={G}: marks kept {tot_cached/tot_all:.2f} of the window marks; changes a round {len(allrel)/len(rel):.0f}, positions quantiles {np.percentile(allrel,[10,25,50,75,90])}")
