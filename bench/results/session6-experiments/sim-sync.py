import re, numpy as np, sys
s=open('/work/main/kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.loadtxt('/tmp/off.b',dtype=np.int64)[:,1]
truth=((vals>>2)<<1)|(vals&1)
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
