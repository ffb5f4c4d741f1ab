# Async (barrier-free) speculation model, Officers true values; time-stepped (tick TAU cycles).
# Usage: python3 sim-async.py W L A B T_END MARGIN (e.g. 3960 3000 800 150 200000 500).
import numpy as np, sys
from sim_data import D, OC, truth
W,L,A,B,T_END=[int(x) for x in sys.argv[1:6]]
TAU=100
MARGIN=int(sys.argv[6]) if len(sys.argv)>6 else 0
P0=200000; N=len(truth)
cval=truth.copy(); cval[P0:]=0; pval=cval.copy(); ctime=np.zeros(N,np.int64); ctime[P0:]=-10**9
last_change=np.zeros(N,np.int64)
nxt=np.full(N,10**18,np.int64); start=np.zeros(N,np.int64); fresh=np.zeros(N,bool); done_start=np.zeros(N,np.int64)
p=P0; end=P0
def enter(upto,t):
    global end
    idx=np.arange(end,upto); fresh[idx]=True; start[idx]=t
    nxt[idx]=t+A+B*((len(D)+31)//32); end=upto
enter(P0+W,0)
t=0; recomp=0; MACC=0
codesrange=np.arange(257)
while t<T_END:
    t+=TAU
    idx=np.nonzero(nxt[p:end]<=t)[0]+p
    if len(idx):
        src=idx[:,None]-D[None,:]
        tl=(start[idx]-L)[:,None]
        v=np.where(ctime[src]<=tl,cval[src],pval[src])^OC[None,:]
        m=np.zeros((len(idx),257),bool); m[np.arange(len(idx))[:,None],v]=True
        new=np.argmin(m,axis=1)
        ch=new!=cval[idx]
        ci=idx[ch]
        pval[ci]=cval[ci]; cval[ci]=new[ch]; ctime[ci]=nxt[ci]; last_change[ci]=nxt[ci]
        recomp+=len(idx)
        fresh[idx]=False
        # next pass
        done_start[idx]=start[idx]
        start[idx]=nxt[idx]
        last_change[idx]=np.maximum(last_change[idx],0)
        # oracle window start
        # scanner: advance over heaps whose last pass read values newer than every change before it
        seg=slice(p,end)
        mx=np.maximum(np.maximum.accumulate(last_change[seg]),MACC)
        okk=(done_start[seg]-L-MARGIN)>=mx
        okk&=~fresh[seg]
        bad=np.nonzero(~okk)[0]
        np_=p+(bad[0] if len(bad) else end-p)
        if np_>p:
            assert (cval[p:np_]==truth[p:np_]).all(), "scanner advanced over a wrong heap"
        if np_>p: MACC=max(MACC,int(last_change[p:np_].max()))
        p=np_
        k=np.searchsorted(D,idx-p,side='right')
        nxt[idx]=start[idx]+A+B*((k+31)//32)
        if end<p+W: enter(p+W,t)
# frontier: heaps whose value is true; time they last changed
ok=cval[P0:end]==truth[P0:end]
firstbad=np.argmin(ok) if not ok.all() else len(ok)
T=np.maximum.accumulate(last_change[P0:P0+firstbad])
# rate over the middle half of the run
lo=np.searchsorted(T,T_END*0.25); hi=np.searchsorted(T,T_END*0.75)
rate=(hi-lo)/(T_END*0.5)
print(f"ASYNC W={W} L={L} A={A} B={B}: frontier {firstbad} heaps in {T_END} cycles; steady {rate*1.98e3:.1f} M heaps/s @1.98GHz; recomputes/heap {recomp/max(firstbad,1):.1f}")
