# Which values does verification wait for, and would a search aimed at them be shorter?
import numpy as np
vals=np.loadtxt('/tmp/off.b',dtype=np.int64)[:,1]
MASK=0x1ee
parity=np.array([bin(x & MASK).count('1') & 1 for x in range(1024)])
K=int(__import__('sys').argv[1]) if len(__import__('sys').argv)>1 else 512
AMAX=60000
f=np.bincount(vals[800000:900000],minlength=1024)/100000.0
seqs=[];tgt=[];nmiss=[];lastvals=[]
for n in range(900000,900300):
    c=vals[n]; pc=parity[c]
    want=np.nonzero((np.arange(1024)<c)&(parity==pc))[0]
    a=np.arange(1,AMAX); x=vals[a]^vals[n-1-a]
    first={}
    for y in want:
        h=np.nonzero(x==y)[0]
        first[y]=h[0]+1 if len(h) else None
    if any(v is None for v in first.values()): continue
    seqs.append(max(first.values()) if first else 0)
    miss=[y for y in want if first[y]>K]
    nmiss.append(len(miss))
    # targeted: for each missing y, candidates a in [K+1, AMAX) ordered by f(y^G(a)) desc
    cost=K
    for y in miss:
        aa=np.arange(K+1,AMAX)
        score=f[vals[aa]^y]
        order=aa[np.argsort(-score,kind='stable')]
        ok=(vals[order]^vals[n-1-order])==y
        r=np.nonzero(ok)[0][0]+1
        cost+=r
        lastvals.append((y, first[y], r, f[vals[first[y]]^y] if True else 0))
    tgt.append(cost)
seqs=np.array(seqs); tgt=np.array(tgt)
print(f"K={K}: sequential mean {seqs.mean():.0f} median {np.median(seqs):.0f}; missing after K: mean {np.mean(nmiss):.1f} max {max(nmiss)}; targeted (K + per missing value rank) mean {tgt.mean():.0f} median {np.median(tgt):.0f} p90 {np.percentile(tgt,90):.0f}")
lv=np.array(lastvals)
import collections
print("most often missing values:", collections.Counter(lv[:,0].tolist()).most_common(12))
print("freq of the needed partner value at the first hit (median):", np.median(lv[:,3]))
