# Session 21 run 16: the chain alone. Applied to kernels-gen/src/chain.rs = chain-run15.rs (after
# chain-v6.patch): stage M also logs every entry to global memory; after the pipeline's run, block 0
# runs the chain again on the same heaps with its entries copied from that log by the stage-M warps
# (no far blocks, no publisher, no strikes), prints both runs' cycles, and compares the replay's
# codes with the pipeline's.
p='kernels-gen/src/chain.rs'
s=open(p).read()
def rep(a,b):
    global s
    assert a in s, a
    s=s.replace(a,b,1)
rep('''#define CH_FULL 0xffffffffu''','''#define CH_FULL 0xffffffffu
#define CH_LOG (1u << 25)
__device__ u64 ch_log[CH_LOG];
__device__ unsigned char ch_out[CH_LOG];''')
rep('''        *(volatile u64 *)(cand + (n & (CH_CAND - 1u))) = c | (u64)(missing(got) | turn(n)) << 32;''','''        *(volatile u64 *)(cand + (n & (CH_CAND - 1u))) = c | (u64)(missing(got) | turn(n)) << 32;
        ch_log[(n - (unsigned)lo) & (CH_LOG - 1u)] = c | (u64)(missing(got) | turn(n)) << 32;''')
rep('''__device__ void chain_warp(unsigned *hist, const u64 *cand, const unsigned *far_bits, unsigned *done,
        unsigned *masks, unsigned *stopped, u64 lo, u64 hi, u64 *ctl) {''','''__device__ void chain_warp(unsigned *hist, const u64 *cand, const unsigned *far_bits, unsigned *done,
        unsigned *masks, unsigned *stopped, u64 lo, u64 hi, u64 *ctl, unsigned char *out) {
    long long t_start = clock64();''')
rep('''        put(hist, a, nv);''','''        put(hist, a, nv);
        if (out && (int)(a - P - adv) < 0) out[a - first] = (unsigned char)nv;''')
rep('''    if (threadIdx.x == 0) {
        ctl[CTL_ROUNDS] += rounds;''','''    if (threadIdx.x == 0 && len > 1000000u) printf("ALONE %s: heaps %u rounds %u cycles %lld\\n", out ? "replay" : "pipeline", len, rounds, clock64() - t_start);
    if (threadIdx.x == 0) {
        ctl[CTL_ROUNDS] += rounds;''')
rep('''// A far block's wait until''','''// Replay's stage M: copies the logged entries into the ring, each group once the chain is past
// the heaps its slots held (as stage M's last wait).
__device__ void chain_copy(unsigned m, u64 *cand, const unsigned *done, unsigned *stopped, u64 lo, u64 groups) {
    unsigned lane = threadIdx.x & 31u;
    for (u64 i = m; i < groups; i += CH_MWARPS) {
        long need = (long)(32u * i + 32u) - (long)(CH_NEAR + 1u);
        while ((long)chain_done(done) < need) { if (ld_acquire_cta(stopped)) return; __nanosleep(20); }
        unsigned n = (unsigned)(lo + 32u * i) + lane;
        *(volatile u64 *)(cand + (n & (CH_CAND - 1u))) = ch_log[(n - (unsigned)lo) & (CH_LOG - 1u)];
    }
}

// A far block's wait until''')
rep('''        chain_warp(hist, cand, far_bits, done, masks, &stopped, lo, hi, ctl);''','''        chain_warp(hist, cand, far_bits, done, masks, &stopped, lo, hi, ctl, 0);''')
rep('''        chain_mid(mid_index(warp), hist, cand, done, &stopped, far_bits, far_tag, lo, groups);
    }
}''','''        chain_mid(mid_index(warp), hist, cand, done, &stopped, far_bits, far_tag, lo, groups);
    }
    __syncthreads();
    if (hi - lo <= 1000000u) return;
    __shared__ u64 spare_ctl[16];
    __shared__ unsigned mismatches;
    for (unsigned k = tid; k < CH_CAND; k += blockDim.x) cand[k] = (u64)turn((unsigned)lo + 64u * CH_CAND) << 32;
    for (u64 h = lo - min((u64)CH_HIST, lo) + tid; h < lo; h += blockDim.x) {
        unsigned rep = (unsigned)__ldcg(codes + (h & cmask)) * 0x01010101u;
        hist[(unsigned)h & (CH_HIST - 1u)] = rep;
        hist[((unsigned)h & (CH_HIST - 1u)) + CH_HIST] = rep;
    }
    if (tid < CH_WARPS) done[tid] = 0u;
    if (tid < 16) spare_ctl[tid] = 0;
    if (tid == 0) { stopped = 0u; mismatches = 0u; }
    __syncthreads();
    if (warp < CH_WARPS) {
        chain_warp(hist, cand, far_bits, done, masks, &stopped, lo, hi, spare_ctl, ch_out);
    } else if (mid_index(warp) < CH_MWARPS) {
        chain_copy(mid_index(warp), cand, done, &stopped, lo, groups);
    }
    __syncthreads();
    for (u64 r = tid; r < hi - lo; r += blockDim.x) {
        if (ch_out[r] != (unsigned char)__ldcg(codes + ((lo + r) & cmask))) atomicAdd(&mismatches, 1u);
    }
    __syncthreads();
    if (tid == 0) printf("ALONE replay mismatches %u of %llu\\n", mismatches, hi - lo);
}''')
open(p,'w').write(s)
