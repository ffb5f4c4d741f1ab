# Per heap (Officers 300 000 .. 320 000, true codes): options whose code below the mex no other option
# hits (the options a change of source would move), by distance.
import sys, os, numpy as np
_here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [_here, _here + '/../session13-experiments', _here + '/../session6-experiments']
from sim_data import D, OC, truth
hs = np.arange(300000, 320000)
v = truth[hs[:, None] - D[None, :]] ^ OC[None, :]
mex = truth[hs]
cnt = np.zeros((len(hs), 512), np.int32)
for j in range(v.shape[1]):
    np.add.at(cnt, (np.arange(len(hs)), v[:, j]), 1)
# critical: option whose code < mex and hit exactly once
uniq = (cnt[np.arange(len(hs))[:, None], v] == 1) & (v < mex[:, None])
dd = np.broadcast_to(D[None, :], v.shape)[uniq]
print("heaps", len(hs), "unique-critical options per heap", uniq.sum() / len(hs))
for lim in [1,2,4,8,16,32,64,128,256,512,1024,4096,20628]:
    print(lim, (dd <= lim).sum() / len(hs))
print("mex mean", mex.mean(), "counts below mex mean", cnt[:, :].sum(1).mean())
