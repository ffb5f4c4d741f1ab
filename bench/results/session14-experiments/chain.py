# Why the first changed heap of a round changed: its sources that changed in the round before.
import sys, os, numpy as np
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_here, _here + '/../session13-experiments', _here + '/../session6-experiments']
from entering import comp, truth, P0, D, OC
W, R = int(sys.argv[1]), int(sys.argv[2])
V = truth.copy(); V[P0:] = 0
p = P0; prevV = V.copy(); ds = []; ages = []; born = {}
enter_round = np.zeros(len(V), int)
for r in range(R):
    end = p + W
    enter_round[p:end][enter_round[p:end] == 0] = r
    h = np.arange(p, end)
    before = V.copy()
    new = comp(h, V)
    chg = np.nonzero(new != V[p:end])[0]
    V[p:end] = new
    if len(chg) and r > 40:
        c = p + chg[0]
        src = c - D
        changed = src[(src >= P0) & (before[np.maximum(src, 0)] != prevV[np.maximum(src, 0)])]
        ds.append(sorted(c - changed)[:5]); ages.append(r - enter_round[c])
    pn = end if len(chg) == 0 else p + chg[0] + 1
    prevV = before
    p = pn
print("ages of first changed heap:", np.bincount(ages))
flat = np.concatenate([np.array(x) for x in ds if len(x)])
print("rounds", len(ds), "with no changed source", sum(1 for x in ds if not len(x)))
print("min changed-source distance quantiles", np.percentile([x[0] for x in ds if len(x)], [10,25,50,75,90]))
print("num changed sources (<=5 shown)", np.bincount([len(x) for x in ds]))
