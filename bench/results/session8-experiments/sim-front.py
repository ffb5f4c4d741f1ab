# Session 8: CPU model of a front of F heaps iterated k times (sub-rounds) per round of the
# W-heap window, from the current codes (Officers, values of `octal solve .6 -n 1e6 --values
# /tmp/off.b`). Usage: python3 sim-front.py W F:k ...
# CPU simulation: global Jacobi rounds over a window W, plus a front of F heaps iterated k times
# (sub-rounds) per global round from the current values. Officers true values from /tmp/off.b.
import re, numpy as np, sys
s=open('/work/main/kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.loadtxt('/tmp/off.b',dtype=np.int64)[:,1]
codes=((vals>>2)<<1)|(vals&1)
truth=codes
def compute(V,lo,hi):
    h=np.arange(lo,hi)
    marks=np.zeros((hi-lo,257),bool)
    for d,oc in zip(D,OC):
        marks[np.arange(hi-lo),V[h-d]^oc]=True
    return np.argmax(~marks,axis=1)
def run(W,F,k,P0=200000,ROUNDS=150):
    V=codes.copy(); V[P0:]=0
    p=P0; rounds=0; sub=0
    while rounds<ROUNDS:
        end=p+W
        old=V.copy()
        newg=compute(old,p,end)
        chg=np.nonzero(newg!=old[p:end])[0]
        pg = end if len(chg)==0 else p+chg[0]+1
        # front
        pl=p
        Vf=old
        if F>0:
            Vf=old.copy()
            for _ in range(k):
                if pl>=p+F: break
                nf=compute(Vf,pl,p+F)
                c=np.nonzero(nf!=Vf[pl:p+F])[0]
                Vf[pl:p+F]=nf
                sub+=1
                pl = p+F if len(c)==0 else pl+c[0]+1
        V[p:end]=newg
        if F>0:
            V[p:p+F]=Vf[p:p+F]
        pn=max(pg,pl) if F>0 else pg
        # a global-round proof only counts if front did not change those heaps: recheck simply
        assert (V[P0:pn]==truth[P0:pn]).all(), (p,pg,pl)
        p=pn
        rounds+=1
    return (p-P0)/rounds, sub/rounds
W=int(sys.argv[1]); 
for F,k in [(0,0)]+[(int(a),int(b)) for a,b in (x.split(':') for x in sys.argv[2:])]:
    adv,sr=run(W,F,k)
    print(f"W={W} F={F} k={k}: adv/round={adv:.0f} subrounds/round={sr:.1f}",flush=True)
