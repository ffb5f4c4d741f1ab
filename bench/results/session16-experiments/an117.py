import re,sys,collections
L=collections.defaultdict(list)
for line in open(sys.argv[1]):
    m=re.match(r"INSTR b=(\d+) rounds=(\d+) lo=(\d+) cycles/round: mark (\d+) \(warps max (\d+) mean (\d+)\) barrier (\d+) reload (\d+) marks (\d+)",line)
    if m: v=list(map(int,m.groups())); L[v[2]].append(v)
for lo in sorted(L)[:3]:
    rows=sorted(L[lo],key=lambda r:r[3])
    def st(i): xs=sorted(r[i] for r in rows); return "min %d med %d max %d"%(xs[0],xs[len(xs)//2],xs[-1])
    print("launch lo=%d blocks=%d rounds=%d | mark %s | barrier %s | reload %s | marks/round %s"%(lo,len(rows),rows[0][1],st(3),st(6),st(7),st(8)))
    print("  slowest 6 (b mark barrier marks):", [(r[0],r[3],r[6],r[8]) for r in rows[-6:]])
    print("  fastest 3:", [(r[0],r[3],r[6],r[8]) for r in rows[:3]])
    print("  mark+barrier: %s"%(sorted(r[3]+r[6] for r in rows)[::33]))
