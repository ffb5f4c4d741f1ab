p='kernels-gen/src/chain.rs'
s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a
    s=s.replace(a,b,1)
rep('''    unsigned p = 0, rounds = 0;
    u64 over = NONE;
    while (p < len) {''','''    unsigned p = 0, rounds = 0;
    u64 over = NONE;
    long long t0 = clock64(), twait = 0, ph[5] = {0,0,0,0,0}; unsigned nslow = 0, nlate = 0;
    long long ta = clock64(), tb;
    while (p < len) {''')
rep('''        const unsigned *base = hist + CH_HIST + h;
        // A byte of acc''','''        const unsigned *base = hist + CH_HIST + h;
        tb = clock64(); ph[0] += tb - ta; ta = tb;
        // A byte of acc''')
rep('''        unsigned open = ~acc & 0x80808080u;''','''        unsigned open = ~acc & 0x80808080u;
        tb = clock64(); ph[1] += tb - ta; ta = tb;''')
rep('''            unsigned f = adv - 1u;''','''            unsigned f = adv - 1u; nslow++;''')
rep('''        unsigned rep = (nv & 0xffu) * 0x01010101u;''','''        tb = clock64(); ph[2] += tb - ta; ta = tb;
        unsigned rep = (nv & 0xffu) * 0x01010101u;''')
rep('''        if (lane >= 32u - adv) {
            if (next_ready >= p + 32u) {''','''        tb = clock64(); ph[3] += tb - ta; ta = tb;
        if (lane >= 32u - adv) {
            if (next_ready >= p + 32u) {''')
rep('''                while (ready < p + 32u) ready = ld_acquire_cta(ready_to);''','''                long long tw = clock64(); nlate++;
                while (ready < p + 32u) ready = ld_acquire_cta(ready_to);
                twait += clock64() - tw;''')
rep('''        __syncwarp();
        if (lane == 0) st_release_cta(done_to, p);
    }''','''        __syncwarp();
        if (lane == 0) st_release_cta(done_to, p);
        tb = clock64(); ph[4] += tb - ta; ta = tb;
    }
    if (lane == 31 && len > 1000000u) printf("PROF chain: heaps %u rounds %u cycles %lld wait(lane31) %lld late-rounds %u slow %u phases(prefetch,opts,pick,store+slide,enter+publish) %lld %lld %lld %lld %lld\\n", p, rounds, clock64() - t0, twait, nlate, nslow, ph[0], ph[1], ph[2], ph[3], ph[4]);''')
rep('''    unsigned lane = threadIdx.x & 31u;
    for (u64 i = m; i < groups; i += CH_MWARPS) {''','''    unsigned lane = threadIdx.x & 31u;
    long long ttag = 0, twait = 0, ttot = 0, tlate = 0; unsigned ng = 0;
    for (u64 i = m; i < groups; i += CH_MWARPS) {
        if (m == 0 && lane == 0 && ng == 2000 && groups > 100000) printf("PROF mid0: groups %u tag-wait %lld chain-wait %lld total %lld ready-wait %lld (cycles, sums)\\n", ng, ttag, twait, ttot, tlate);
        long long ta = clock64(); ng++;''')
rep('''            if (ld_acquire_cta(stopped)) return;
        }
        const unsigned *out''','''            if (ld_acquire_cta(stopped)) return;
        }
        ttag += clock64() - ta;
        const unsigned *out''')
rep('''#define CH_WAIT(d) { long need_ = (long)(32u * i + 32u) - (long)(d); \\
        while''','''#define CH_WAIT(d) { long need_ = (long)(32u * i + 32u) - (long)(d); long long tw_ = clock64(); \\
        while''')
rep('''__nanosleep(20); } }''','''__nanosleep(20); } twait += clock64() - tw_; }''')
rep('''        __syncwarp();
        while ((u64)ld_acquire_cta(ready_to) != 32u * i) {
            if (ld_acquire_cta(stopped)) return;
        }''','''        __syncwarp();
        long long tl = clock64();
        while ((u64)ld_acquire_cta(ready_to) != 32u * i) {
            if (ld_acquire_cta(stopped)) return;
        }
        tlate += clock64() - tl; ttot += clock64() - ta;''')
rep('''    __shared__ u64 published;
    for''','''    __shared__ u64 published;
    long long tall = clock64(); unsigned ngr = 0;
    for''')
rep('''            st_release(far_tag + (i % CH_GROUPS), g0 + 1u);
        }''','''            st_release(far_tag + (i % CH_GROUPS), g0 + 1u);
        }
        ngr++;
        if (tid == 0 && blockIdx.x == 1 && ngr == 200 && groups > 100000) printf("PROF far1: groups %u cycles %lld\\n", ngr, clock64() - tall);''')
open(p,'w').write(s)
