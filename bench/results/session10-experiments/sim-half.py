# Rounds over W (Officers' true codes). A heap deeper than T marks, each round, the options whose
# source lies in the younger half of [p, n); those in the older half only every other round (by
# heap parity), reusing the marks of its last such round otherwise. Such a heap counts as changed.
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); T=int(sys.argv[2]); R=int(sys.argv[3]); P0=200000
V=codes.copy(); V[P0:]=0
stored={}
p=P0; fresh_from=P0; tot=dict(adv=0,marks=0,maxw=0,blkmax=0)
for r in range(R):
    end=p+W; h=np.arange(p,end); j=h-p
    old=V.copy(); fresh=h>=fresh_from
    deep=(j>T)&~fresh
    redo_old=deep&((h+r)%2==0)
    marks=np.zeros((W,300),bool); oldm=np.zeros((W,300),bool); cnt=np.zeros(W,int)
    for d,oc in zip(D,OC):
        src=h-d; val=old[src]^oc
        young=src>=h-j//2
        isold=deep&(src>=p)&~young
        use=~isold
        marks[np.nonzero(use)[0],val[use]]=True
        ro=isold&redo_old
        oldm[np.nonzero(ro)[0],val[ro]]=True
        cnt+=(~fresh)&(src>=p)&(~isold|redo_old)
        cnt+=fresh&(d>W)
    for i in np.nonzero(deep)[0]:
        if redo_old[i] or h[i] not in stored: stored[h[i]]=oldm[i].copy()  # (first deep round: fresh marks, modelled as computed)
        marks[i]|=stored[h[i]]
    newg=np.argmax(~marks,axis=1)
    chg=np.nonzero(newg!=old[p:end])[0]
    V[p:end]=newg
    tot['marks']+=cnt.sum(); tot['maxw']+=cnt.max()
    tot['blkmax']+=np.bincount(h%132,weights=cnt,minlength=132).max()
    stops=[]
    if len(chg): stops.append(p+chg[0]+(0 if (fresh[chg[0]] or deep[chg[0]]) else 1))
    dd=np.nonzero(deep)[0]
    if len(dd): stops.append(p+dd[0])
    pn=min(stops) if stops else end
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p; fresh_from=end; p=pn
print(f"W={W} T={T}", {k:round(v/R) for k,v in tot.items()})
