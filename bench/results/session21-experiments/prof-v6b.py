# Session 21: prof-v6.py's clock64 sums and, on top of them, the phases of a chain warp's round.
# Run from the repo root after chain-v6.patch, instead of prof-v6.py.
import os
exec(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), 'prof-v6.py')).read())
s=open(p).read()
# Phases of a chain warp's round (prof-v6b): options, up to the mask barrier, after it.
rep("""    long long t0 = clock64(), tb1 = 0, tent = 0, tb2 = 0, tx;""", """    long long t0 = clock64(), tb1 = 0, tent = 0, tb2 = 0, tx, topt = 0, tpre = 0, tpost = 0, ty = clock64();""")
rep("""        unsigned open = ~(acc[0] | acc[1] | acc[2] | acc[3]) & 0x80808080u;
        unsigned nv = first_open(C, open);""", """        unsigned open = ~(acc[0] | acc[1] | acc[2] | acc[3]) & 0x80808080u;
        unsigned nv = first_open(C, open);
        { long long tz = clock64(); topt += tz - ty; ty = tz; }""")
rep("""        tx = clock64();
        chain_sync();
        tb1 += clock64() - tx;""", """        tx = clock64();
        tpre += tx - ty;
        chain_sync();
        tb1 += clock64() - tx;
        ty = clock64();""")
rep("""        tx = clock64();
        if ((int)(a - P) < 0) {""", """        tx = clock64();
        tpost += tx - ty;
        if ((int)(a - P) < 0) {""")
rep("""        tb2 += clock64() - tx;
    }""", """        tb2 += clock64() - tx;
        ty = clock64();
    }
    if (lane == 0 && len > 1000000u) printf("PROF chain warp %u phases: options %lld to-barrier %lld after-barrier %lld\\n", w, topt, tpre, tpost);""")
open(p,'w').write(s)
