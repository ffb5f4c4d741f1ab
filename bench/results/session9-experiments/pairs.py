# Emulates verify's pair indexing: the splits a step marks equal {G(a)^G(top-a): 1<=a<=lim}.
import random
PAD=128; U=2
for trial in range(3000):
    prefix=random.choice([64,66,128,1000,1 << 12])
    ring=1 << random.choice([12,13,14])
    cm=ring-1
    prefix=min(prefix, ring//4)
    F=prefix+PAD; S=(F+1)&~1
    n=random.randrange(3, 50000); i=random.choice([1,2,3])
    G=[random.randrange(512) for _ in range(n+1)]
    first=[None]*(2*S)
    for h in range(min(F, n+1)): first[h]=G[h]
    for h in range(1, min(F, n)+1): first[S+h-1]=G[h]
    g=[None]*ring
    for h in range(max(0,n-ring+1), n+1): g[h & cm]=G[h]
    if n < i: continue
    lim=min((n-i)//2, prefix-1); top=n-i
    odd=(top&1)^1
    base=S//2 if odd else 0
    want={(a, G[a]^G[top-a]) for a in range(1, lim+1)}
    got=set()
    a0=odd
    while a0<=lim:
        for u in range(U):
            for lane in range(32):
                a=a0+64*u+2*lane
                idx=base+(a>>1)
                assert 2*idx+1 < 2*S
                lo,hi=first[2*idx],first[2*idx+1]
                q=(top-a-1)&cm
                assert q%2==0
                L,H=g[q],g[q+1]
                if a>=1 and a<=lim:
                    assert lo==G[a] and H==G[top-a], (a,)
                    got.add((a, lo^H))
                if a+1<=lim:
                    assert hi==G[a+1] and L==G[top-a-1]
                    got.add((a+1, hi^L))
        a0+=64*U
    assert got==want, (n,i,prefix,lim)
print("ok")
