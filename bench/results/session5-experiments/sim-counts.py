# Session 5: CPU simulation of the window rounds on Officers' true values (b-file of
# 'octal solve .6 -n 400000 --values'): marks a round of kernels-gen 4 against the count-based
# kernel's entering-heap counts and deltas. Usage: python3 sim-counts.py WINDOW END_HEAP
import re, numpy as np, sys
s=open('/work/main/kernels-gen/tests/snapshots/officers.cu').read()
def arr(name):
    m=re.search(name+r'\[\d+\] = \{(.*?)\};',s,re.S)
    return np.array([int(x) for x in m.group(1).replace('\n','').split(',')])
D=arr('OPTION_DIST'); OC=arr('OPTION_CODE')
vals=np.loadtxt('/tmp/off.b',dtype=np.int64)[:,1]
codes=((vals>>2)<<1)|(vals&1)
W=int(sys.argv[1]) if len(sys.argv)>1 else 4096
P0=200000; P1=int(sys.argv[2]) if len(sys.argv)>2 else 260000
V=codes.copy(); V[P0:]=0
truth=codes
p=P0; fresh_from=P0; rounds=0
tot_changed=0; tot_delta=0; tot_enter=0; tot_mark=0
prev_end=P0
CH=None  # change list from previous round: positions, old, new
while p<P1:
    end=p+W
    h=np.arange(p,end)
    marks=np.zeros((W,256),bool)
    for d,oc in zip(D,OC):
        src=h-d
        marks[np.arange(W),V[src]^oc]=True
    new=np.argmax(~marks,axis=1)
    # current kernel work (approx): options with source >= p for non-fresh, all for fresh
    nwin=np.searchsorted(D,h-p,side='right')  # options d <= h-p read window
    fresh=h>=fresh_from
    tot_mark+=int(np.where(fresh,len(D),nwin).sum())
    # incremental: entering heaps full count; deltas for previous changes
    tot_enter+=int(fresh.sum())*len(D)
    if CH is not None:
        # targets c+d in [p,end) and < fresh_from (already counted)
        for c in CH:
            lo_t=max(p,c+1); hi_t=min(end,fresh_from)
            if hi_t>lo_t:
                tot_delta+=int(np.searchsorted(D,hi_t-1-c,side='right')-np.searchsorted(D,lo_t-c,side='left'))
    chg=np.nonzero(new!=V[p:end])[0]
    CH=(chg+p)
    tot_changed+=len(chg)
    V[p:end]=new
    rounds+=1
    fresh_from=end
    if len(chg)==0: p=end
    else:
        f=p+chg[0]
        assert V[f]==truth[f]
        p=f+1
adv=(p-P0)/rounds
print(f"W={W} rounds={rounds} adv/round={adv:.1f} changed/round={tot_changed/rounds:.1f} cur_marks/round={tot_mark/rounds:.0f} enter/round={tot_enter/rounds:.0f} delta/round={tot_delta/rounds:.0f}")
assert (V[P0:p]==truth[P0:p]).all()
