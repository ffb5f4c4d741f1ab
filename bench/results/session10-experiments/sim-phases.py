# Rounds over a window W (Officers' true codes) in K contiguous phases: phase i computes its
# heaps from the codes after phase i-1 (so later phases see this round's earlier phases).
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); K=int(sys.argv[2]); R=int(sys.argv[3]); P0=200000
V=codes.copy(); V[P0:]=0
p=P0; tot=dict(adv=0)
def compute(V,lo,hi):
    h=np.arange(lo,hi); marks=np.zeros((hi-lo,300),bool)
    for d,oc in zip(D,OC): marks[np.arange(hi-lo),V[h-d]^oc]=True
    return np.argmax(~marks,axis=1)
for r in range(R):
    end=p+W; first=None
    for i in range(K):
        a=p+W*i//K; b=p+W*(i+1)//K
        newg=compute(V,a,b)
        chg=np.nonzero(newg!=V[a:b])[0]
        V[a:b]=newg
        if first is None and len(chg): first=a+chg[0]
    pn=end if first is None else first+1
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p; p=pn
print(f"W={W} K={K}", {k:round(v/R) for k,v in tot.items()})
