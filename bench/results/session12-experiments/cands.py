# For heap n: codes free after the options reaching more than F back; how many of them lie below
# the true code (= candidates the near options kill) -> K needed.
import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')
from sim_data import D, OC, truth as codes  # /tmp/off.b: 'octal solve .6 -n 2000000 --values /tmp/off.b'
print("options",len(D),"codes max",codes.max(), "dist max", D.max())
for F in [64,128,256,512,1024,4096]:
    far=D>F
    ks=[]
    for n in range(1500000,1500000+3000):
        m=np.zeros(512,bool); m[codes[n-D[far]]^OC[far]]=True
        free=np.nonzero(~m)[0]
        ks.append(int(np.searchsorted(free,codes[n])))
    ks=np.array(ks)
    print(f"F={F} near={int((~far).sum())} killed-before-true: mean {ks.mean():.1f} p99 {np.percentile(ks,99):.0f} p99.9 {np.percentile(ks,99.9):.0f} max {ks.max()}")
