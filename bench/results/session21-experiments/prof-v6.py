# Session 21: clock64 sums printed by the chain kernel of chain-v6.patch (applied first): the
# chain's waits (mask barrier, entering heaps, end barrier), stage M's (far tag, chain), the far
# blocks' (published codes) and the publisher's stores and releases. Run from the repo root.
p='kernels-gen/src/chain.rs'
s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a
    s=s.replace(a,b,1)
rep('''    unsigned P = first, rounds = 0;
    u64 over = NONE;
    for (;;) {''','''    unsigned P = first, rounds = 0;
    u64 over = NONE;
    long long t0 = clock64(), tb1 = 0, tent = 0, tb2 = 0, tx;
    for (;;) {''')
rep('''            masks[CH_WARPS + w] = slow;
        }
        chain_sync();''','''            masks[CH_WARPS + w] = slow;
        }
        tx = clock64();
        chain_sync();
        tb1 += clock64() - tx;''')
rep('''        if ((int)(a - P) < 0) {
            // The window passed''','''        tx = clock64();
        if ((int)(a - P) < 0) {
            // The window passed''')
rep('''        } else {
            cur = nv;
        }
        chain_sync();
    }''','''        } else {
            cur = nv;
        }
        __syncwarp();
        tent += clock64() - tx;
        tx = clock64();
        chain_sync();
        tb2 += clock64() - tx;
    }
    if (lane == 0 && len > 1000000u) printf("PROF chain warp %u: rounds %u cycles %lld mask-barrier %lld entering %lld end-barrier %lld\\n", w, rounds, clock64() - t0, tb1, tent, tb2);''')
rep('''    unsigned pub = 0, len = (unsigned)(hi - lo);
    for (;;) {''','''    unsigned pub = 0, len = (unsigned)(hi - lo);
    long long tst = 0, trel = 0, t0 = clock64(); unsigned npub = 0;
    for (;;) {''')
rep('''        if (to > pub) {
            for (unsigned r = pub + lane; r < to; r += 32u) {''','''        if (to > pub) {
            long long ta = clock64(); npub++;
            for (unsigned r = pub + lane; r < to; r += 32u) {''')
rep('''            __syncwarp();
            if (lane == 0) st_release(ctl + CTL_PUBLISHED, lo + to);
            pub = to;''','''            __syncwarp();
            long long tb = clock64(); tst += tb - ta;
            if (lane == 0) st_release(ctl + CTL_PUBLISHED, lo + to);
            __syncwarp();
            trel += clock64() - tb;
            pub = to;''')
rep('''        } else if (stop) {
            return;''','''        } else if (stop) {
            if (lane == 0 && len > 1000000u) printf("PROF publisher: publishes %u cycles %lld stores %lld releases %lld\\n", npub, clock64() - t0, tst, trel);
            return;''')
rep('''    unsigned lane = threadIdx.x & 31u;
    for (u64 i = m; i < groups; i += CH_MWARPS) {''','''    unsigned lane = threadIdx.x & 31u;
    long long ttag = 0, twait = 0, ttot = 0; unsigned ng = 0;
    for (u64 i = m; i < groups; i += CH_MWARPS) {
        if (m == 0 && lane == 0 && ng == 4000 && groups > 100000) printf("PROF mid0: groups %u tag-wait %lld chain-wait %lld total %lld (cycles, sums)\\n", ng, ttag, twait, ttot);
        long long ta = clock64(); ng++;''')
rep('''        while (ld_acquire(far_tag + slot) != g0 + 1u) {
            if (ld_acquire_cta(stopped)) return;
        }''','''        while (ld_acquire(far_tag + slot) != g0 + 1u) {
            if (ld_acquire_cta(stopped)) return;
        }
        ttag += clock64() - ta;''')
rep('''#define CH_WAIT(d) { long need_ = (long)(32u * i + 32u) - (long)(d); \\''','''#define CH_WAIT(d) { long need_ = (long)(32u * i + 32u) - (long)(d); long long tw_ = clock64(); \\''')
rep('''__nanosleep(20); } }''','''__nanosleep(20); } twait += clock64() - tw_; }''')
rep('''        *(volatile u64 *)(cand + (n & (CH_CAND - 1u))) = c | (u64)(missing(got) | turn(n)) << 32;''','''        *(volatile u64 *)(cand + (n & (CH_CAND - 1u))) = c | (u64)(missing(got) | turn(n)) << 32;
        ttot += clock64() - ta;''')
rep('''    if (threadIdx.x == 0) {
        u64 pub = ld_acquire(ctl + CTL_PUBLISHED);
        while (pub < need && !*(volatile u64 *)(ctl + CTL_ABORT)) pub = ld_acquire(ctl + CTL_PUBLISHED);
        *published = pub;
    }''','''    if (threadIdx.x == 0) {
        long long ta = clock64();
        u64 pub = ld_acquire(ctl + CTL_PUBLISHED);
        while (pub < need && !*(volatile u64 *)(ctl + CTL_ABORT)) pub = ld_acquire(ctl + CTL_PUBLISHED);
        *published = pub;
        far_spin += clock64() - ta;
    }''')
rep('''__device__ __forceinline__ bool far_wait(''','''__device__ long long far_spin_sum;
__device__ __forceinline__ bool far_wait(''')
s=s.replace('far_spin += clock64() - ta;','far_spin_local += clock64() - ta;')
rep('''__device__ long long far_spin_sum;
__device__ __forceinline__ bool far_wait(u64 need,''','''__device__ __forceinline__ bool far_wait(long long &far_spin_local, u64 need,''')
s=s.replace('if (!far_wait(g0','if (!far_wait(far_spin, g0')
rep('''    __shared__ u64 published;''','''    __shared__ u64 published;
    long long far_spin = 0, tall = clock64(), tgroup = 0; unsigned ngr = 0;''')
rep('''        u64 n = g0 + lane;
        unsigned to = N_OPTIONS - CH_MID_END;''','''        u64 n = g0 + lane;
        long long tg = clock64();
        unsigned to = N_OPTIONS - CH_MID_END;''')
rep('''            st_release(far_tag + (i % CH_GROUPS), g0 + 1u);
        }''','''            st_release(far_tag + (i % CH_GROUPS), g0 + 1u);
        }
        tgroup += clock64() - tg; ngr++;
        if (tid == 0 && blockIdx.x == 1 && ngr == 400 && groups > 100000) printf("PROF far1: groups %u cycles %lld in-groups %lld spin %lld\\n", ngr, clock64() - tall, tgroup, far_spin);''')
open(p,'w').write(s)
