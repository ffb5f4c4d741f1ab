# Rounds over a window W (Officers' true codes), heaps in aligned runs of L consecutive heaps:
# options reaching at most K back whose source is an earlier heap of the same run read that heap's
# value of this round (computed in order), the others the round before's (Jacobi).
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); L=int(sys.argv[2]); K=int(sys.argv[3]); R=int(sys.argv[4]); P0=200000
V=codes.copy(); V[P0:]=0
p=P0; tot=dict(adv=0,chg=0)
for r in range(R):
    end=p+W; h=np.arange(p,end)
    old=V.copy(); new=old.copy()
    base=np.zeros((W,300),bool)
    inrun=[]
    for d,oc in zip(D,OC):
        src=h-d
        local=(d<=K)&(src>=p)&((src//L)==(h//L))
        idx=np.nonzero(~local)[0]
        base[idx,old[src[idx]]^oc]=True
        if d<=K: inrun.append((d,oc,local))
    # resolve in order of position in run
    pos=h%L
    for j in range(L):
        sel=np.nonzero(pos==j)[0]
        m=base[sel].copy()
        for d,oc,local in inrun:
            ls=sel[local[sel]]
            if len(ls): m[np.searchsorted(sel,ls), new[h[ls]-d]^oc]=True
        new[h[sel]]=np.argmax(~m,axis=1)
    newg=new[p:end]
    chg=np.nonzero(newg!=old[p:end])[0]
    V[p:end]=newg
    pn=end if len(chg)==0 else p+chg[0]+1
    # heaps after the first change: a heap in the same run after it was computed from it: fine
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p; tot['chg']+=len(chg)
    p=pn
print(f"W={W} L={L} K={K}", {k:round(v/R) for k,v in tot.items()})
