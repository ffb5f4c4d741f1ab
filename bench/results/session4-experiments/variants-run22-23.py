import re,sys
base=open('/work/main/.carry-gpu/exp4/base.cu').read()
def sub(s, old, new, count=1):
    assert s.count(old)==count, (old, s.count(old))
    return s.replace(old,new)
# V1: branch-free marking (invalid options repeat the lane's first mark), 32-bit ring index
old_mark = """            x[u] = 0xffffffffu;
            if (j < to) {
#if OPTIONS_SHARED
                Option o = opts[j];
#else
                Option o = {OPTION_DIST[j], OPTION_CODE[j]};
#endif
                x[u] = (unsigned)SOURCE(n - o.dist) ^ o.code;
            }
        }
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) {
            if (x[u] != 0xffffffffu) atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
        }"""
new_mark = """            Option o = opts[j];
            unsigned v = (unsigned)ring[((unsigned)n - o.dist) & (RING - 1)] ^ o.code;
            x[u] = (u == 0 || j < to) ? v : x[0];
        }
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) {
            atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
        }"""
v1 = sub(base, old_mark, new_mark)
open('V1.cu','w').write(v1)
# V2: V1 + fresh heaps mark only their far options in their first round (always "changed")
v2 = v1
v2 = sub(v2, """            if (n >= fresh_from) mark_options(opts, ring, codes, mine, slot, lane, n, near, N_OPTIONS);
            mark_options(opts, ring, codes, mine, marks, lane, n, 0u, near);""",
"""            bool fresh = n >= fresh_from;
            if (fresh) {
                mark_options(opts, ring, codes, mine, slot, lane, n, near, N_OPTIONS);
                if (lane < WORDS) marks[lane] = 0u;
                __syncwarp();
            } else {
                mark_options(opts, ring, codes, mine, marks, lane, n, 0u, near);
            }""")
v2 = sub(v2, """            if (lane == 0) {
                if (c >= CODES) {
                    atomicMin(block_min + 1, n);
                    atomicMin(block_min, n);
                } else if (c != (unsigned)SOURCE(n)) {
                    codes[n] = (code_t)c;
                    atomicMin(block_min, n);
                }
            }""","""            if (lane == 0) {
                if (fresh) {
                    if (c < CODES && c != (unsigned)SOURCE(n)) codes[n] = (code_t)c;
                    atomicMin(block_min, 2u * n + 1u);
                } else if (c >= CODES) {
                    atomicMin(block_min + 1, n);
                    atomicMin(block_min, 2u * n);
                } else if (c != (unsigned)SOURCE(n)) {
                    codes[n] = (code_t)c;
                    atomicMin(block_min, 2u * n);
                }
            }""")
v2 = sub(v2, """        if (over != NONE && over == changed) {""", """        if (over != NONE && 2u * over == changed) {""")
v2 = sub(v2, """        p = changed == NONE ? end : changed + 1;""", """        p = changed == NONE ? end : (changed & 1u) ? changed / 2u : changed / 2u + 1u;""")
open('V2.cu','w').write(v2)
# V3: V2 + settling: a heap keeps in its slot the marks of every option whose source is proved
# (dist > n - p), [settled, N); each round it settles the options that became so and recomputes
# only [0, settled).
v3 = v2
v3 = sub(v3, """        unsigned *mine, unsigned *out, unsigned lane, u64 n, unsigned from, unsigned to) {""",
"""        unsigned *mine, unsigned *out, unsigned lane, u64 n, unsigned from, unsigned to, bool acc) {""")
v3 = sub(v3, """        if (lane == 0) out[w] = taken;""", """        if (lane == 0) out[w] = acc ? out[w] | taken : taken;""")
v3 = sub(v3, """    __shared__ u64 block_min[2], round_end[2];""", """    __shared__ u64 block_min[2], round_end[2];
    __shared__ unsigned settled[FAR_SLOTS];""")
v3 = sub(v3, """            bool fresh = n >= fresh_from;
            if (fresh) {
                mark_options(opts, ring, codes, mine, slot, lane, n, near, N_OPTIONS);
                if (lane < WORDS) marks[lane] = 0u;
                __syncwarp();
            } else {
                mark_options(opts, ring, codes, mine, marks, lane, n, 0u, near);
            }""", """            bool fresh = n >= fresh_from;
            unsigned t = (unsigned)(n - p);
            unsigned s_old = fresh ? near : settled[k % FAR_SLOTS];
            unsigned s_new = s_old;
            for (;;) {
                int j = (int)s_new - 1 - (int)lane;
                unsigned run = __popc(__ballot_sync(0xffffffffu, j >= 0 && opts[j].dist > t));
                s_new -= run;
                if (run < 32u) break;
            }
            if (fresh || s_new < s_old) mark_options(opts, ring, codes, mine, slot, lane, n, s_new, fresh ? N_OPTIONS : s_old, !fresh);
            if (lane == 0) settled[k % FAR_SLOTS] = s_new;
            if (fresh) {
                if (lane < WORDS) marks[lane] = 0u;
                __syncwarp();
            } else {
                mark_options(opts, ring, codes, mine, marks, lane, n, 0u, s_new, false);
            }""")
open('V3.cu','w').write(v3)
# V2-prof: V2 with per-block timings: marking (clock64 from the round's start to the block's
# arrival), wait (from its arrival to the release, clock64), and how often it arrived last.
vp = v2
vp = sub(vp, """__device__ __forceinline__ void end_round(""", """__shared__ long long prof_start, prof_mark, prof_wait, prof_after;
__shared__ unsigned prof_last;
__device__ __forceinline__ void end_round(""")
vp = sub(vp, """        asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + CTL_ARRIVED) : "memory");
        u64 all = (u64)(r + 1u) * gridDim.x;""", """        long long t_arr = clock64();
        prof_mark += t_arr - prof_start;
        u64 old;
        asm volatile("atom.release.gpu.global.add.u64 %0, [%1], 1;" : "=l"(old) : "l"(ctl + CTL_ARRIVED) : "memory");
        u64 all = (u64)(r + 1u) * gridDim.x;
        if (old == all - 1u) prof_last++;""")
vp = sub(vp, """        block_min[0] = NONE;
        block_min[1] = NONE;
    }
    __syncthreads();
    if (threadIdx.x == 0) {""", """        block_min[0] = NONE;
        block_min[1] = NONE;
        prof_wait += clock64() - t_arr;
    }
    __syncthreads();
    if (threadIdx.x == 0) {""")
vp = sub(vp, """#if RING
    load_ring(ring, codes, from, to);
#endif
    __syncthreads();
}""", """#if RING
    load_ring(ring, codes, from, to);
#endif
    __syncthreads();
    if (threadIdx.x == 0) { long long t = clock64(); prof_after += t - prof_start; prof_start = t; }
}""")
vp = sub(vp, """    unsigned round = 0;
    while (p < hi) {""", """    unsigned round = 0;
    if (tid == 0) { prof_start = clock64(); prof_mark = 0; prof_wait = 0; prof_after = 0; prof_last = 0; }
    while (p < hi) {""")
vp = sub(vp, """    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;
}""", """    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;
    if (tid == 0 && round > 1000u) printf("prof block %d rounds %u round %lld mark %lld wait %lld last %u\\n", (int)b, round, prof_after / round, prof_mark / round, prof_wait / round, prof_last);
}""")
open('V2-prof.cu','w').write(vp)
# V4: V2 with the poll relaxed and one acquire fence after it.
v4 = sub(v2, """        do {
            asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
        } while (arrived < all);""", """        do {
            asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
        } while (arrived < all);
        asm volatile("fence.acq_rel.gpu;" ::: "memory");""")
open('V4.cu','w').write(v4)
