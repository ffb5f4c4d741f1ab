# Rounds over a window W on Officers' true codes: per round, the marks of the window's heaps
# (options with source at or after p) and how many of those heaps had a source changed in the
# round before (only they can change).
import re, numpy as np, sys
s=open('/work/main/kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.loadtxt('/tmp/off.b',dtype=np.int64)[:,1]
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); P0=200000; R=int(sys.argv[2]) if len(sys.argv)>2 else 60
V=codes.copy(); V[P0:]=0
p=P0; fresh_from=P0
changed_prev=None  # set of heaps changed in the previous round
tot=dict(adv=0,marks=0,dirty_marks=0,heaps=0,dirty_heaps=0,changes=0)
hist=np.zeros(8)
for r in range(R):
    end=p+W; h=np.arange(p,end); j=h-p
    old=V.copy()
    marks=np.zeros((W,257),bool); cnt=np.zeros(W,int); dirty=np.zeros(W,bool)
    for d,oc in zip(D,OC):
        src=h-d
        marks[np.arange(W),old[src]^oc]=True
        near=(d<=j)&(h<fresh_from)
        cnt+=near
        if changed_prev is not None:
            dirty|=near&changed_prev[np.clip(src-(p-W*0),0,None)%len(changed_prev)] if False else near&np.isin(src,changed_prev)
    newg=np.argmax(~marks,axis=1)
    fresh=h>=fresh_from
    chg=np.nonzero(newg!=old[p:end])[0]
    V[p:end]=newg
    changed_prev=h[newg!=old[p:end]]
    tot['marks']+=cnt.sum(); tot['dirty_marks']+=cnt[dirty].sum()
    tot['heaps']+=(~fresh).sum(); tot['dirty_heaps']+=dirty.sum(); tot['changes']+=len(chg)
    np.add.at(hist, np.minimum(j[~fresh]*8//W,7), cnt[~fresh])
    pn = end if len(chg)==0 else (p+chg[0] if fresh[chg[0]] else p+chg[0]+1)
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p
    fresh_from=end; p=pn
print(f"W={W} rounds={R}", {k:round(v/R) for k,v in tot.items()})
print("marks by eighth of window (per round):", (hist/R).round())
