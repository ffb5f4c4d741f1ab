import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')
from sim_data import D, OC, truth as codes  # /tmp/off.b: 'octal solve .6 -n 2000000 --values /tmp/off.b'
for F in [384,512,768,1024]:
    far=D>F
    off=[];rk=[]
    for n in range(1500000,1500000+4000):
        m=np.zeros(512,bool); m[codes[n-D[far]]^OC[far]]=True
        free=np.nonzero(~m)[0]
        off.append(codes[n]-free[0]); rk.append(int(np.searchsorted(free,codes[n])))
    off=np.array(off); rk=np.array(rk)
    print(f"F={F}: true-base p50 {np.median(off)} p99 {np.percentile(off,99)} p99.9 {np.percentile(off,99.9)} max {off.max()}  >=32: {(off>=32).mean():.4f} >=64: {(off>=64).mean():.5f}; rank max {rk.max()}")
