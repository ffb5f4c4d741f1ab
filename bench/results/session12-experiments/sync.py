# Is Officers' recurrence self-synchronising? Perturb one code before s, recompute from s with
# the speculative recurrence (common codes, rare table as options), count differing heaps.
import sys, numpy as np
sys.path.insert(0, __file__.rsplit('/', 1)[0] + '/../session6-experiments')
from sim_data import D, OC, truth as codes  # /tmp/off.b: 'octal solve .6 -n 2000000 --values /tmp/off.b'
S=int(sys.argv[1]); N=int(sys.argv[2]); pert=int(sys.argv[3])
V=codes.copy()
# sanity: recurrence reproduces truth at a few heaps
def mex(V,n):
    m=np.zeros(300,bool); m[V[n-D]^OC]=True
    return int(np.argmax(~m))
assert all(mex(codes,n)==codes[n] for n in range(S,S+50))
V[S-pert]^=2   # a different code
diff=[]
for n in range(S,S+N):
    V[n]=mex(V,n)
    diff.append(V[n]!=codes[n])
diff=np.array(diff)
print("differ total",diff.sum(),"in blocks of",N//10,":",[int(x) for x in diff.reshape(10,-1).sum(1)])
