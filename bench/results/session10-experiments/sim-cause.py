# Rounds over W (Officers): for each round's first changed heap h1 (not fresh), the distances of
# its sources that changed in the round before (the cause), and how many rounds h1 had been in.
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); R=int(sys.argv[2]); P0=200000
V=codes.copy(); V[P0:]=0
prev=None; p=P0; fresh_from=P0
dists=[]; advs=[]; nsrc=[]; wrongfrac=[]
for r in range(R):
    end=p+W; h=np.arange(p,end)
    old=V.copy()
    marks=np.zeros((W,300),bool)
    for d,oc in zip(D,OC):
        marks[np.arange(W),old[h-d]^oc]=True
    newg=np.argmax(~marks,axis=1)
    fresh=h>=fresh_from
    chg=np.nonzero(newg!=old[p:end])[0]
    if prev is not None and len(chg) and not fresh[chg[0]]:
        n=h[chg[0]]
        ds=[d for d in D if n-d>=P0 and prev[n-d]!=old[n-d]]
        dists.append(min(ds) if ds else -1); nsrc.append(len(ds))
        wrongfrac.append(((old[p:end]!=codes[p:end]).mean()))
    prev=V.copy()
    V[p:end]=newg
    pn = end if len(chg)==0 else (p+chg[0] if fresh[chg[0]] else p+chg[0]+1)
    advs.append(pn-p)
    fresh_from=end; p=pn
dists=np.array(dists)
print("adv",np.mean(advs),"min cause dist pct",np.percentile(dists,[10,25,50,75,90]),"n changed sources",np.mean(nsrc), "wrong frac", np.mean(wrongfrac))
