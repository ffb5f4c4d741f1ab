# The rounds (kernels-gen 4) in the same cost model as sim-async.py: round = the slowest heap's pass + FIX.
# Usage: python3 sim-sync.py W A B FIX ADVANCE (e.g. 4096 800 150 3200 6000).
import numpy as np, sys
from sim_data import D, OC, truth
W,A,B,FIX,ADV=[int(x) for x in sys.argv[1:6]]
P0=200000
V=truth.copy(); V[P0:]=0
p=P0; fresh_from=P0; t=0; rounds=0
while p<P0+ADV:
    end=p+W; h=np.arange(p,end)
    src=h[:,None]-D[None,:]
    v=V[src]^OC[None,:]
    m=np.zeros((W,257),bool); m[np.arange(W)[:,None],v]=True
    new=np.argmin(m,axis=1)
    k=np.where(h>=fresh_from,len(D),np.searchsorted(D,h-p,side='right'))
    t+=A+B*((k.max()+31)//32)+FIX
    chg=np.nonzero(new!=V[p:end])[0]
    V[p:end]=new; rounds+=1; fresh_from=end
    p = end if len(chg)==0 else p+chg[0]+1
print(f"SYNC W={W} A={A} B={B} FIX={FIX}: adv/round {(p-P0)/rounds:.0f}, {(p-P0)/t*1.98e3:.1f} M heaps/s")
