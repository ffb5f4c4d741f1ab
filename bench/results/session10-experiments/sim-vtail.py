# Officers: splits a verify warp needs per heap (a = 1.. until every rare-class value below G(n)
# is some G(a) ^ G(n-1-a)), in steps of 128; the mean and the mean of the max over 8 heaps.
import numpy as np
v=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
MASK=0x1ee
par=np.array([bin(x&MASK).count('1')&1 for x in range(1024)])
need=[]
for n in range(1500000,1500000+4000):
    c=v[n]; pc=par[c]
    missing=set(x for x in range(c) if par[x]!=pc)
    a=np.arange(1,(n-1)//2+1)
    x=v[a]^v[n-1-a]
    # first index at which all missing seen
    seen=np.zeros(1024,bool); last=0
    idx={}
    # first occurrence of each value
    vals,first=np.unique(x,return_index=True)
    fo=dict(zip(vals,first))
    m=max(fo.get(y,10**9) for y in missing) if missing else 0
    need.append(m+1)
need=np.array(need)
steps=np.ceil(need/128)*128
print("mean splits",need.mean(),"median",np.median(need),"p90",np.percentile(need,90),"p99",np.percentile(need,99),"max",need.max())
s8=steps[:len(steps)//8*8].reshape(-1,8)
print("steps mean",steps.mean(),"mean of max over 8",s8.max(axis=1).mean(),"ratio",s8.max(axis=1).mean()/steps.mean())
