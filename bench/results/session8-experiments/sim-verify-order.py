# Session 8: splits that verification tries before a heap is proved, in several orders
# (Officers, values of `octal solve .6 -n 1e6 --values /tmp/off.b`).
import numpy as np
vals=np.loadtxt('/tmp/off.b',dtype=np.int64)[:,1]
MASK=0x1ee
parity=np.array([bin(x & MASK).count('1') & 1 for x in range(1024)])
def needed(n, order):
    c=vals[n]; pc=parity[c]
    want=np.zeros(1024,bool); want[:c]=parity[:c]==pc
    total=want.sum()
    a=order(n)
    x=vals[a]^vals[n-1-a]
    hit=want[x]
    # splits until all wanted covered: first occurrence of each wanted value
    seen=np.zeros(1024,bool); 
    xs=x[hit]; idx=np.nonzero(hit)[0]
    # first index for each value
    u,first=np.unique(xs,return_index=True)
    if total==0: return 0
    if len(u)<total: return None
    return idx[first].max()+1
M0=None
def seq(n): return np.arange(1,(n-1)//2+1)
def chunks(step):
    def f(n):
        M=(n-1)//2
        nch=M//32
        k=np.arange(nch)
        base=(k*step)%nch  # chunk permutation if gcd(step,nch)=1
        return (base[:,None]*32+np.arange(32)[None,:]+1).ravel()
    return f
def randperm(n):
    M=(n-1)//2
    return np.random.permutation(M)+1
for name,o in [("sequential",seq),("random",randperm),("chunks*7919",chunks(7919)),("chunks*104729",chunks(104729)),("chunks golden", None)]:
    if o is None:
        def o(n):
            M=(n-1)//2; nch=M//32
            k=np.arange(nch); base=np.floor((k*0.6180339887)%1*nch).astype(np.int64)
            return (base[:,None]*32+np.arange(32)[None,:]+1).ravel()
    r=[needed(n,o) for n in range(900000,900200)]
    r=np.array([x for x in r if x is not None])
    print(f"{name}: mean {r.mean():.0f} median {np.median(r):.0f} p90 {np.percentile(r,90):.0f} max {r.max()}",flush=True)
