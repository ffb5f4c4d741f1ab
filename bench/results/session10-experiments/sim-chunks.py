# Rounds over W (Officers' true codes). A heap deeper than T marks each round its options reaching
# at most Y back (young) and one of k chunks of the others (option index mod k == round mod k),
# reusing each other chunk's marks from its last round (stale); such a heap counts as changed.
# Reports the advance, the marks a round, and the most marks of one non-fresh heap.
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W,T,Y,K,R=(int(x) for x in sys.argv[1:6]); P0=200000
V=codes.copy(); V[P0:]=0
stored={}  # heap -> (K,300) bool
p=P0; fresh_from=P0; tot=dict(adv=0,marks=0,maxnf=0,maxf=0)
idx=np.arange(len(D))
for r in range(R):
    end=p+W; h=np.arange(p,end); j=h-p
    old=V.copy(); fresh=h>=fresh_from
    deep=(j>T)&~fresh
    marks=np.zeros((W,300),bool); cnt=np.zeros(W,int)
    redo=np.zeros((K,W,300),bool)
    for jj,(d,oc) in enumerate(zip(D,OC)):
        src=h-d; val=old[src]^oc
        near=src>=p
        chunky=deep&near&(d>Y)
        ch=jj%K
        now=chunky&(ch==r%K)
        normal=~chunky
        marks[np.nonzero(normal)[0],val[normal]]=True
        # chunk marks computed now (also for heaps new to deep: all chunks, below)
        redo[ch][np.nonzero(chunky)[0],val[chunky]]=True
        cnt+=(~fresh)&near&(~chunky|now)
        cnt+=fresh&(d>W)
    for i in np.nonzero(deep)[0]:
        hh=h[i]
        if hh not in stored:
            stored[hh]=redo[:,i,:].copy()   # first deep round: all chunks (entering from fresh)
            cnt[i]+=0
        else:
            stored[hh][r%K]=redo[r%K,i,:]
        marks[i]|=stored[hh].any(axis=0)
    newg=np.argmax(~marks,axis=1)
    chg=np.nonzero(newg!=old[p:end])[0]
    V[p:end]=newg
    tot['marks']+=cnt.sum(); tot['maxnf']+=cnt[~fresh].max() if (~fresh).any() else 0; tot['maxf']+=cnt[fresh].max() if fresh.any() else 0
    stops=[]
    if len(chg): stops.append(p+chg[0]+(0 if (fresh[chg[0]] or deep[chg[0]]) else 1))
    dd=np.nonzero(deep)[0]
    if len(dd): stops.append(p+dd[0])
    pn=min(stops) if stops else end
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p; fresh_from=end; p=pn
print(f"W={W} T={T} Y={Y} K={K}", {k:round(v/R) for k,v in tot.items()}, flush=True)
