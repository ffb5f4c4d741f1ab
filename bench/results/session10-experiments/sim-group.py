# Rounds over a window W on Officers' true codes; per round the marks under (a) the current rule
# (every option whose source is at or after p) and (b) group-dirty: sources grouped in absolute
# blocks of G heaps; a heap re-marks a group only when a heap of it changed in the round before.
import re, numpy as np, sys
s=open('kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.fromfile('/tmp/off.raw',dtype=np.uint16).astype(np.int64)
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]); G=int(sys.argv[2]); R=int(sys.argv[3]); P0=200000
V=codes.copy(); V[P0:]=0
p=P0; fresh_from=P0
gchanged=np.zeros(len(V)//G+2,bool)  # group had a change in the previous round
tot=dict(adv=0,marks=0,gmarks=0,maxw=0,gmaxw=0,blkmax=0,gblkmax=0)
for r in range(R):
    end=p+W; h=np.arange(p,end); j=h-p
    old=V.copy()
    marks=np.zeros((W,300),bool); cnt=np.zeros(W,int); gcnt=np.zeros(W,int)
    fresh=h>=fresh_from
    for d,oc in zip(D,OC):
        src=h-d
        marks[np.arange(W),old[src]^oc]=True
        near=(src>=p)&~fresh
        cnt+=near
        gcnt+=near&gchanged[src//G]
        cnt+=fresh&(d>W); gcnt+=fresh&(d>W)
    newg=np.argmax(~marks,axis=1)
    chg=np.nonzero(newg!=old[p:end])[0]
    V[p:end]=newg
    gchanged[:]=False
    gchanged[(h[chg])//G]=True
    # a group holding fresh heaps counts as changed (their first values)
    gchanged[h[fresh]//G]=True
    tot['marks']+=cnt.sum(); tot['gmarks']+=gcnt.sum()
    tot['maxw']+=cnt.max(); tot['gmaxw']+=gcnt.max()
    # per block: 132 blocks, heaps n%132; block's total
    bc=np.bincount(h%132,weights=cnt,minlength=132); gb=np.bincount(h%132,weights=gcnt,minlength=132)
    tot['blkmax']+=bc.max(); tot['gblkmax']+=gb.max()
    pn = end if len(chg)==0 else (p+chg[0] if fresh[chg[0]] else p+chg[0]+1)
    assert (V[P0:pn]==codes[P0:pn]).all()
    tot['adv']+=pn-p
    fresh_from=end; p=pn
print(f"W={W} G={G} rounds={R}", {k:round(v/R) for k,v in tot.items()})
