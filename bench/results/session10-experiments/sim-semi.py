# Rounds over a window W (Officers' true codes). Heaps deeper than T in the window mark the options
# whose sources lie in [p_entry, p_entry + L) once, from the codes of their entry round (stale),
# and re-mark only the options past that each round; from depth T on they mark everything, as now.
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); T=int(sys.argv[2]); L=int(sys.argv[3]); R=int(sys.argv[4]); P0=200000
N=len(V:=codes.copy()); V[P0:]=0
pe=np.zeros(N,np.int64)  # entry p of each heap
stale={}  # heap -> snapshot marks for semi sources (bool vector)
p=P0; fresh_from=P0
tot=dict(adv=0,marks=0,maxw=0,blkmax=0)
for r in range(R):
    end=p+W; h=np.arange(p,end); j=h-p
    old=V.copy()
    fresh=h>=fresh_from
    pe[h[fresh]]=p
    deep=(j>T)
    marks=np.zeros((W,300),bool); cnt=np.zeros(W,int)
    cut=pe[h]+L
    semi_new=np.zeros((W,300),bool)
    for d,oc in zip(D,OC):
        src=h-d
        val=old[src]^oc
        insemi=deep&(src>=pe[h])&(src<cut)
        # semi marks: from the entry snapshot (recorded at fresh round)
        normal=~insemi
        marks[np.arange(W)[normal],val[normal]]=True
        semi_new[np.arange(W)[insemi&fresh],val[insemi&fresh]]=True
        cnt+=(~fresh)&(src>=p)&~insemi
        cnt+=fresh&((src<p)|insemi)
    for i in np.nonzero(fresh)[0]:
        stale[h[i]]=semi_new[i].copy()
    for i in np.nonzero(deep&~fresh)[0]:
        marks[i]|=stale[h[i]]
    newg=np.argmax(~marks,axis=1)
    chg=np.nonzero(newg!=old[p:end])[0]
    V[p:end]=newg
    tot['marks']+=cnt.sum(); tot['maxw']+=cnt.max()
    bc=np.bincount(h%132,weights=cnt,minlength=132); tot['blkmax']+=bc.max()
    # deep heaps count as changed-in-first-round (p stops at them)
    first=[c for c in chg]
    cand=[p+c+(0 if (fresh[c] or deep[c]) else 1) for c in chg[:1]]
    deepidx=np.nonzero(deep)[0]
    stops=cand+([p+deepidx[0]] if len(deepidx) else [])
    pn=min(stops) if stops else end
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p
    fresh_from=end; p=pn
print(f"W={W} T={T} L={L} rounds={R}", {k:round(v/R) for k,v in tot.items()})
