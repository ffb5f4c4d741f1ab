//! The `chain` kernel: the speculation as a pipeline instead of rounds over the whole device.
//!
//! One warp (the chain, block 0's warp 0) holds a window of 32 heaps, one a lane, and iterates
//! on it alone: each round every lane computes its heap from the options reaching at most
//! `CH_NEAR` heaps back (unrolled, distances and codes as literals, sources from a shared ring
//! of the window's current codes), comparing them with four candidates, the first four codes
//! its farther options leave free; the heaps before the first one that changed are proved, and
//! so is that one, so the window moves past it (the round argument of `spec`, in a warp: no grid
//! barrier, no block barrier). The candidates come from two stages that run ahead of the chain:
//! block 0's other warps (stage M) mark a heap's options reaching `CH_NEAR` + 1 .. `CH_MID` back
//! once the chain has passed their sources, over a bitset that the far blocks (every other
//! block, stage F) marked with the options reaching farther, once the chain's codes, published
//! to global memory by block 0's warp 1, have passed theirs. A stage that is late only makes the
//! chain wait; no guess is ever reported: a lane whose four candidates are all hit takes the
//! exact mex from its stage-M bitset.

use crate::layout::{CHAIN_GROUPS, CHAIN_MID, CHAIN_NEAR, CHAIN_SPLIT, CHAIN_WARPS};
use crate::Layout;
use std::fmt::Write;

/// The defines and option lists of the `chain` kernel (for a layout with `chain` set).
pub fn render_params(w: &mut String, l: &Layout) {
    let end = |d: usize| l.options.partition_point(|o| o.0 <= d);
    let (near, mid) = (end(CHAIN_NEAR), end(CHAIN_MID));
    let defines = [
        ("CH_NEAR", CHAIN_NEAR),
        ("CH_MID", CHAIN_MID),
        ("CH_SPLIT", CHAIN_SPLIT),
        ("CH_NEAR_END", near),
        ("CH_MID_END", mid),
        ("CH_GROUPS", CHAIN_GROUPS),
        ("CH_WARPS", CHAIN_WARPS),
        ("CH_RING", l.chain_ring),
    ];
    let _ = writeln!(w);
    for (name, value) in defines {
        let _ = writeln!(w, "#define {name} {value}");
    }
    // Distances and codes as literals: the chain's loads take the distance as an offset.
    let _ = write!(w, "#define CH_NEAR_LIST(X)");
    for (k, (d, c)) in l.options[..near].iter().enumerate() {
        if k % 8 == 0 {
            let _ = write!(w, " \\\n   ");
        }
        // Four accumulators in turn: the chain's ors are four short chains, not one long one.
        let _ = write!(w, " X({d}, {c}u, {})", k % 4);
    }
    let _ = writeln!(w);
    // Stage M marks its options farthest first, in bands between powers of two, each band once
    // the chain has passed its sources (WAIT(d): the band's least distance).
    let _ = write!(w, "#define CH_MID_STAGES(WAIT, X)");
    let mut band_end = mid;
    while band_end > near {
        let least = l.options[band_end - 1].0;
        let floor = (least.next_power_of_two() / 2).max(CHAIN_NEAR);
        let start = l.options.partition_point(|o| o.0 <= floor).max(near);
        let _ = write!(w, " \\\n    WAIT({})", l.options[start].0);
        items(w, l.options[start..band_end].iter().rev());
        band_end = start;
    }
    let _ = writeln!(w);
}

fn items<'a>(w: &mut String, options: impl Iterator<Item = &'a (usize, u16)>) {
    for (k, (d, c)) in options.enumerate() {
        if k % 8 == 0 {
            let _ = write!(w, " \\\n   ");
        }
        let _ = write!(w, " X({d}, {c}u)");
    }
}

/// The kernel's text (the same for every game with a chain).
pub const KERNEL: &str = r#"
// ---- chain -------------------------------------------------------------------------------
#define CH_HIST 2048u           // the chain's shared ring of codes (replicated in a word, twice)
#define CH_CAND 512u            // heaps of the candidate ring (stage M's output)
#define CH_W (32u * CH_WARPS)   // the chain's window: a heap a lane of CH_WARPS warps
#define CH_MWARPS 11u           // stage-M warps: the 11 after the chain's and the publisher
#define CH_FULL 0xffffffffu

__device__ __forceinline__ u64 ld_acquire(const u64 *p) {
    u64 v;
    asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ void st_release(u64 *p, u64 v) {
    asm volatile("st.release.gpu.global.u64 [%0], %1;" :: "l"(p), "l"(v) : "memory");
}

// Block 0's progress words in shared memory: read with acquire (nothing after the read moves
// before it: the compiler would otherwise hoist the reads of the data it guards out of a
// polling loop), written with release (the data before the write).
__device__ __forceinline__ unsigned ld_acquire_cta(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.cta.shared.u32 %0, [%1];" : "=r"(v) : "r"((unsigned)__cvta_generic_to_shared(p)) : "memory");
    return v;
}

__device__ __forceinline__ void st_release_cta(unsigned *p, unsigned v) {
    asm volatile("st.release.cta.shared.u32 [%0], %1;" :: "r"((unsigned)__cvta_generic_to_shared(p)), "r"(v) : "memory");
}

// Stage M's warp index of warp w of block 0, or CH_MWARPS for none.
__device__ __forceinline__ unsigned mid_index(unsigned w) {
    return w > CH_WARPS && w <= CH_WARPS + CH_MWARPS ? w - CH_WARPS - 1u : CH_MWARPS;
}

// How far the chain has proved and published its codes: the least of its warps' words.
__device__ __forceinline__ unsigned chain_done(const unsigned *done) {
    unsigned v = ld_acquire_cta(done);
    for (unsigned w = 1; w < CH_WARPS; w++) v = min(v, ld_acquire_cta(done + w));
    return v;
}

// The chain's warps' barrier (named barrier 1; a warp alone needs only its own).
__device__ __forceinline__ void chain_sync() {
#if CH_WARPS == 1
    __syncwarp();
#else
    asm volatile("bar.sync 1, %0;" :: "r"(CH_W) : "memory");
#endif
}

// Bit 7 of each byte of the result: set where the byte of t is zero.
__device__ __forceinline__ unsigned zero_bytes(unsigned t) {
    return ~(((t & 0x7f7f7f7fu) + 0x7f7f7f7fu) | t);
}

// The top bits of the bytes k .. 3 of a word (candidates past the `k` there are).
__device__ __forceinline__ unsigned missing(unsigned k) {
    return k >= 4u ? 0u : (unsigned)(0x80808080ull & ~((1ull << (8u * k)) - 1u));
}

// A heap's entry in the candidate ring (stage M's output, one 64-bit word, written and read at
// once): its four candidates, and the top bits of the bytes without one with, in bits 0..6, the
// heap's turn round the ring (n / CH_CAND mod 128): an entry is the heap's when that matches.
__device__ __forceinline__ unsigned turn(unsigned n) {
    return (n / CH_CAND) & 0x7fu;
}

// Words of a group's slot in far_bits: the far bitsets (WORDS x 32 lanes), then the first
// eight codes they leave free (two words x 32 lanes) and how many there are (one x 32).
#define CH_SLOT_WORDS ((WORDS + 3u) * 32u)

// The exact mex of a chain lane's heap: its far bitset (in its group's slot, `far`: word w at
// far[32 w]), and its options of stage M and of the chain from the chain's ring (base[-d]: the
// code of the heap d back). CODES when every code is taken.
__device__ __noinline__ unsigned chain_exact(const unsigned *far, const unsigned *base) {
    unsigned taken[WORDS];
    for (unsigned w = 0; w < WORDS; w++) taken[w] = __ldcg(far + 32u * w);
#define CH_TAKE(d, c) { unsigned x_ = (base[-(int)(d)] & 0xffu) ^ (c); taken[x_ >> 5] |= 1u << (x_ & 31u); }
#define CH_TAKE_NEAR(d, c, k) CH_TAKE(d, c)
#define CH_NO_WAIT(d)
    CH_NEAR_LIST(CH_TAKE_NEAR)
    CH_MID_STAGES(CH_NO_WAIT, CH_TAKE)
#undef CH_NO_WAIT
#undef CH_TAKE_NEAR
#undef CH_TAKE
    for (unsigned w = 0; w < WORDS; w++) {
        if (~taken[w]) return 32u * w + (unsigned)(__ffs(~taken[w]) - 1);
    }
    return CODES;
}

// Heap n's entry in the candidate ring, once stage M has written it.
__device__ __forceinline__ u64 entry_of(const u64 *cand, unsigned n) {
    const volatile u64 *e = cand + (n & (CH_CAND - 1u));
    u64 v = *e;
    while ((unsigned)(v >> 32 & 0x7fu) != turn(n)) v = *e;
    return v;
}

// The candidates of a heap from its entry, and the top bits of the bytes without one.
#define CH_CANDS(e) ((unsigned)(e))
#define CH_BAD(e) ((unsigned)((e) >> 32) & 0x80808080u)

// The code of a heap from its four candidates and the hits on them: the first candidate left,
// or CODES for none.
__device__ __forceinline__ unsigned first_open(unsigned C, unsigned open) {
    return open ? (C >> (__ffs(open) - 8)) & 0xffu : CODES;
}

// Stores code c (replicated over a word) for heap n in the chain's ring, twice.
__device__ __forceinline__ void put(unsigned *hist, unsigned n, unsigned c) {
    unsigned h = n & (CH_HIST - 1u), rep = (c & 0xffu) * 0x01010101u;
    hist[h] = rep;
    hist[h + CH_HIST] = rep;
}

// A chain warp (see the crate's `chain` module): the chain speculates heaps lo .. hi over a
// window of CH_W heaps [P, P + CH_W), one a lane of CH_WARPS warps: lane l of warp w holds the
// heap of the window that is first + 32 w + l mod CH_W, so the window moves with no shuffle; it
// keeps its current code, its four candidates (a byte each, ascending) and `bad` (the top bit of
// each byte that holds no candidate). The ring `hist` holds the current code of every heap of the
// window and the proved codes before it, each replicated over a word, twice (hist[h] and
// hist[h + CH_HIST], so that heap n - d is at hist + CH_HIST + (n % CH_HIST) - d). A round: every
// lane computes its heap; the warps' masks of changed heaps meet in shared memory (`masks`); each
// warp finds the first changed heap, stores its codes, publishes how far the window moved (its
// word of `done`) and takes the heaps that enter. Heap numbers are taken mod 2^32.
__device__ void chain_warp(unsigned *hist, const u64 *cand, const unsigned *far_bits, unsigned *done,
        unsigned *masks, unsigned *stopped, u64 lo, u64 hi, u64 *ctl) {
    unsigned lane = threadIdx.x & 31u, w = threadIdx.x >> 5;
    unsigned len = (unsigned)(hi - lo), first = (unsigned)lo;
    unsigned a = first + 32u * w + lane;
    u64 e = entry_of(cand, a);
    unsigned C = CH_CANDS(e), bad = CH_BAD(e), cur = C & 0xffu;
    put(hist, a, cur);
    chain_sync();
    unsigned P = first, rounds = 0;
    u64 over = NONE;
    for (;;) {
        // The entry of the lane's next heap, if stage M has written it.
        u64 next = cand[(a + CH_W) & (CH_CAND - 1u)];
        const unsigned *base = hist + CH_HIST + (a & (CH_HIST - 1u));
        // A byte of acc gets its top bit where its candidate equals an option's code (or where
        // there is no candidate).
        unsigned acc[4] = {bad, 0u, 0u, 0u};
#define CH_HIT(d, c, k) acc[k] |= zero_bytes(base[-(int)(d)] ^ C ^ ((c) * 0x01010101u));
        CH_NEAR_LIST(CH_HIT)
#undef CH_HIT
        unsigned open = ~(acc[0] | acc[1] | acc[2] | acc[3]) & 0x80808080u;
        unsigned nv = first_open(C, open);
        // A heap with no candidate left counts as changed (its code is a guess) until it is the
        // first changed heap, which then takes its exact mex.
        unsigned slow = __ballot_sync(CH_FULL, !open);
        unsigned changed = __ballot_sync(CH_FULL, nv != cur) | slow;
#if CH_WARPS == 1
        // One warp: the ballots are the masks (lane l holds heap first + l mod 32).
        unsigned r = (P - first) % 32u;
        unsigned m = __funnelshift_r(changed, changed, r), sm = __funnelshift_r(slow, slow, r);
        unsigned adv = m ? (unsigned)__ffs(m) : 32u, front_slow = m ? sm >> (adv - 1u) & 1u : 0u;
#else
        if (lane == 0) {
            masks[w] = changed;
            masks[CH_WARPS + w] = slow;
        }
        chain_sync();
        // The first changed heap: bit k of the masks (word k / 32) is heap first + k mod CH_W,
        // heap P + ((k - (P - first)) mod CH_W). The words in registers, turned by r / 32 with
        // selects, then shifted by r % 32: no loads or branches after the barrier but the first.
        unsigned M[CH_WARPS], S[CH_WARPS], RM[CH_WARPS], RS[CH_WARPS];
        #pragma unroll
        for (unsigned j = 0; j < CH_WARPS; j++) {
            M[j] = masks[j];
            S[j] = masks[CH_WARPS + j];
        }
        unsigned r = (P - first) % CH_W, q = r / 32u, sh = r % 32u;
        #pragma unroll
        for (unsigned j = 0; j < CH_WARPS; j++) {
            RM[j] = M[j];
            RS[j] = S[j];
            #pragma unroll
            for (unsigned t = 1; t < CH_WARPS; t++) {
                if (q == t) {
                    RM[j] = M[(j + t) % CH_WARPS];
                    RS[j] = S[(j + t) % CH_WARPS];
                }
            }
        }
        unsigned adv = CH_W, front_slow = 0;
        #pragma unroll
        for (int j = CH_WARPS - 1; j >= 0; j--) {
            unsigned m = __funnelshift_r(RM[j], RM[(j + 1) % CH_WARPS], sh);
            unsigned sm = __funnelshift_r(RS[j], RS[(j + 1) % CH_WARPS], sh);
            if (m) {
                unsigned f = (unsigned)__ffs(m);
                adv = 32u * j + f;
                front_slow = sm >> (f - 1u) & 1u;
            }
        }
#endif
        rounds++;
        if (front_slow) {
            unsigned heap = P + adv - 1u, at = (heap - first) % CH_W;
            if (w == at / 32u && lane == at % 32u) {
                unsigned rel = heap - first;
                nv = chain_exact(far_bits + (rel / 32u % CH_GROUPS) * CH_SLOT_WORDS + rel % 32u, base);
                masks[2u * CH_WARPS] = nv;
            }
            chain_sync();
            // The first changed heap's mex is proved (every heap before it is): past the code
            // space, the launch ends there.
            if (masks[2u * CH_WARPS] >= CODES) {
                over = lo + (heap - first);
                adv -= 1u;
            }
        }
        put(hist, a, nv);
        P += adv;
        // Published before the heaps entering wait for their entries: stage M waits for it.
        __syncwarp();
        if (lane == 0) st_release_cta(done + w, P - first);
        if (over != NONE || P - first >= len) break;
        if ((int)(a - P) < 0) {
            // The window passed the lane's heap: the next one of its class enters.
            if ((unsigned)(next >> 32 & 0x7fu) != turn(a + CH_W)) next = entry_of(cand, a + CH_W);
            a += CH_W;
            C = CH_CANDS(next), bad = CH_BAD(next), cur = C & 0xffu;
            put(hist, a, cur);
        } else {
            cur = nv;
        }
        chain_sync();
    }
    if (threadIdx.x == 0) {
        ctl[CTL_ROUNDS] += rounds;
        if (over != NONE) {
            ctl[CTL_OVERFLOW] = over;
            *(volatile u64 *)(ctl + CTL_ABORT) = 1u;
        }
    }
    chain_sync();
    if (threadIdx.x == 0) st_release_cta(stopped, 1u);
}

// Block 0's warp 1: copies the codes the chain has proved into the global ring and publishes
// how far they go (release), for the far blocks.
__device__ void chain_publish(const unsigned *hist, const unsigned *done, unsigned *stopped,
        code_t *codes, u64 cmask, u64 lo, u64 hi, u64 *ctl) {
    unsigned lane = threadIdx.x & 31u;
    unsigned pub = 0, len = (unsigned)(hi - lo);
    for (;;) {
        unsigned stop = ld_acquire_cta(stopped);
        unsigned to = min(chain_done(done), len);
        if (to > pub) {
            for (unsigned r = pub + lane; r < to; r += 32u) {
                u64 n = lo + r;
                codes[n & cmask] = (code_t)(hist[(unsigned)n & (CH_HIST - 1u)] & 0xffu);
            }
            __syncwarp();
            if (lane == 0) st_release(ctl + CTL_PUBLISHED, lo + to);
            pub = to;
        } else if (stop) {
            return;
        } else {
            __nanosleep(32);
        }
    }
}

// A stage-M warp: the candidates of the groups of 32 heaps it owns (every CH_MWARPS-th): the
// far blocks' first eight free codes, struck out where a stage-M option hits them (compared a
// byte at a time, no bitset), the first four left.
__device__ void chain_mid(unsigned m, const unsigned *hist, u64 *cand, const unsigned *done, unsigned *stopped,
        const unsigned *far_bits, const u64 *far_tag, u64 lo, u64 groups) {
    unsigned lane = threadIdx.x & 31u;
    for (u64 i = m; i < groups; i += CH_MWARPS) {
        u64 g0 = lo + 32u * i;
        unsigned slot = (unsigned)(i % CH_GROUPS);
        while (ld_acquire(far_tag + slot) != g0 + 1u) {
            if (ld_acquire_cta(stopped)) return;
        }
        const unsigned *out = far_bits + slot * CH_SLOT_WORDS + WORDS * 32u + lane;
        unsigned C0 = __ldcg(out), C1 = __ldcg(out + 32u), k = __ldcg(out + 64u);
        unsigned acc0 = missing(k), acc1 = missing(k > 4u ? k - 4u : 0u);
        unsigned n = (unsigned)g0 + lane;
        const unsigned *base = hist + CH_HIST + (n & (CH_HIST - 1u));
        // Before the options of least distance d: the chain past heap g0 + 31 - d.
#define CH_WAIT(d) { long need_ = (long)(32u * i + 32u) - (long)(d); \
        while ((long)chain_done(done) < need_) { if (ld_acquire_cta(stopped)) return; __nanosleep(20); } }
#define CH_STRIKE(d, c) { unsigned t_ = base[-(int)(d)] ^ ((c) * 0x01010101u); \
        acc0 |= zero_bytes(t_ ^ C0); acc1 |= zero_bytes(t_ ^ C1); }
        CH_MID_STAGES(CH_WAIT, CH_STRIKE)
        // The candidate ring's slots of this group: the chain past the heaps they held.
        CH_WAIT(CH_NEAR + 1u)
#undef CH_STRIKE
#undef CH_WAIT
        unsigned c = 0, got = 0;
        unsigned live0 = ~acc0 & 0x80808080u, live1 = ~acc1 & 0x80808080u;
        #pragma unroll
        for (unsigned b = 0; b < 8u; b++) {
            unsigned word = b < 4u ? C0 : C1, live = b < 4u ? live0 : live1;
            if ((live >> (8u * (b % 4u) + 7u) & 1u) && got < 4u) {
                c |= (word >> (8u * (b % 4u)) & 0xffu) << (8u * got);
                got++;
            }
        }
        *(volatile u64 *)(cand + (n & (CH_CAND - 1u))) = c | (u64)(missing(got) | turn(n)) << 32;
    }
}

// A far block's wait until the chain's published codes reach heap `need` (all of its threads
// call it; false when the chain stopped first), then its ring gets them.
__device__ __forceinline__ bool far_wait(u64 need, u64 *ctl, u64 *published, u64 *have, code_t *ring,
        const code_t *codes, u64 cmask) {
    if (threadIdx.x == 0) {
        u64 pub = ld_acquire(ctl + CTL_PUBLISHED);
        while (pub < need && !*(volatile u64 *)(ctl + CTL_ABORT)) pub = ld_acquire(ctl + CTL_PUBLISHED);
        *published = pub;
    }
    __syncthreads();
    u64 pub = *published;
    if (pub < need) return false;
    for (u64 h = *have + threadIdx.x; h < pub; h += blockDim.x) ring[h & (CH_RING - 1u)] = __ldcg(codes + (h & cmask));
    *have = max(*have, pub);
    __syncthreads();
    return true;
}

// A far block: for the groups it owns (every (gridDim.x - 1)-th), the bitset of the options
// reaching more than CH_MID back, farthest first, in bands between powers of two (the first
// band: all past CH_SPLIT), each band as soon as the published codes pass its sources; then the
// first eight codes the bitset leaves free, for stage M.
__device__ void chain_far(unsigned char *smem, const code_t *codes, u64 cmask, u64 lo, u64 groups,
        unsigned *far_bits, u64 *far_tag, u64 *ctl) {
    unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    unsigned *opts = (unsigned *)smem;
    unsigned *set = opts + (N_OPTIONS - CH_MID_END + 1u);
    code_t *ring = (code_t *)(set + WORDS * 32u);
    __shared__ u64 published;
    for (unsigned j = tid; j < N_OPTIONS - CH_MID_END; j += blockDim.x) {
        unsigned o = CH_MID_END + j;
        opts[j] = OPTION_DIST[o] | (unsigned)OPTION_CODE[o] << 24;
    }
    for (unsigned k = tid; k < WORDS * 32u; k += blockDim.x) set[k] = 0u;
    u64 have = lo - min((u64)(CH_RING - 1024u), lo);
    for (u64 h = have + tid; h < lo; h += blockDim.x) ring[h & (CH_RING - 1u)] = __ldcg(codes + (h & cmask));
    have = lo;
    __syncthreads();
    for (u64 i = blockIdx.x - 1u; i < groups; i += gridDim.x - 1u) {
        u64 g0 = lo + 32u * i;
        u64 n = g0 + lane;
        unsigned to = N_OPTIONS - CH_MID_END;
        #pragma unroll 1
        for (unsigned floor = CH_SPLIT; to > 0u; floor /= 2u) {
            // Options [from, to): distance past floor (all that are left at CH_MID).
            unsigned from = 0, above = to;
            if (floor > CH_MID) {
                while (from < above) {
                    unsigned m = (from + above) / 2u;
                    if ((opts[m] & 0xffffffu) <= floor) from = m + 1u; else above = m;
                }
            }
            if (from < to) {
                u64 least = opts[from] & 0xffffffu;
                if (!far_wait(g0 + 32u > least ? g0 + 32u - least : 0, ctl, &published, &have, ring, codes, cmask)) return;
                for (unsigned j = from + warp; j < to; j += 32u) {
                    unsigned o = opts[j];
                    unsigned x = (unsigned)ring[(n - (o & 0xffffffu)) & (CH_RING - 1u)] ^ (o >> 24);
                    atomicOr(set + 32u * (x >> 5) + lane, 1u << (x & 31u));
                }
            }
            to = from;
        }
        // The group's slot held group i - CH_GROUPS: the chain is past it once the published
        // codes pass heap g0 + 32 - CH_MID.
        if (!far_wait(g0 + 32u > CH_MID ? g0 + 32u - CH_MID : 0, ctl, &published, &have, ring, codes, cmask)) return;
        unsigned *out = far_bits + (unsigned)(i % CH_GROUPS) * CH_SLOT_WORDS;
        for (unsigned k = tid; k < WORDS * 32u; k += blockDim.x) __stcg(out + k, set[k]);
        if (warp == 0) {
            unsigned c0 = 0, c1 = 0, got = 0;
            for (unsigned w = 0; w < WORDS && got < 8u; w++) {
                unsigned open = ~set[32u * w + lane];
                while (open && got < 8u) {
                    unsigned c = 32u * w + (unsigned)(__ffs(open) - 1);
                    if (got < 4u) c0 |= c << (8u * got); else c1 |= c << (8u * (got - 4u));
                    got++;
                    open &= open - 1u;
                }
            }
            __stcg(out + WORDS * 32u + lane, c0);
            __stcg(out + WORDS * 32u + 32u + lane, c1);
            __stcg(out + WORDS * 32u + 64u + lane, got);
        }
        __syncthreads();
        for (unsigned k = tid; k < WORDS * 32u; k += blockDim.x) set[k] = 0u;
        if (tid == 0) {
            __threadfence();
            st_release(far_tag + (i % CH_GROUPS), g0 + 1u);
        }
    }
}

// Speculates heaps [lo, hi) (codes at n & cmask; those of lo - REACH .. lo must be the true
// ones) through the pipeline above: block 0 holds the chain, the publisher and stage M, every
// other block is a far block. Every block must be resident (the launch is cooperative). The
// control words: CTL_PUBLISHED (the host sets lo), CTL_ABORT (0), CTL_ROUNDS, CTL_OVERFLOW as in
// `spec`. far_tag (CH_GROUPS words, never reset: a group's tag is its first heap + 1) and
// far_bits (CH_GROUPS slots of CH_SLOT_WORDS words) are the far blocks' output.
extern "C" __global__ void __launch_bounds__(1024, 1) chain(code_t *codes, u64 cmask, u64 lo, u64 hi,
        u64 *ctl, u64 *far_tag, unsigned *far_bits) {
    extern __shared__ __align__(16) unsigned char smem[];
    // Groups past hi too: the window reaches CH_W heaps past its first.
    u64 groups = (hi - lo + CH_W + 63u) / 32u + 1u;
    if (blockIdx.x != 0) {
        chain_far(smem, codes, cmask, lo, groups, far_bits, far_tag, ctl);
        return;
    }
    __shared__ unsigned done[CH_WARPS], masks[2u * CH_WARPS + 1u], stopped;
    unsigned *hist = (unsigned *)smem;
    u64 *cand = (u64 *)(hist + 2u * CH_HIST);
    unsigned tid = threadIdx.x, warp = tid >> 5;
    // No entry matches its heap before stage M writes it: the first heap of slot s is lo / CH_CAND
    // turns round the ring, or one more.
    for (unsigned k = tid; k < CH_CAND; k += blockDim.x) cand[k] = (u64)turn((unsigned)lo + 64u * CH_CAND) << 32;
    for (u64 h = lo - min((u64)CH_HIST, lo) + tid; h < lo; h += blockDim.x) {
        unsigned rep = (unsigned)__ldcg(codes + (h & cmask)) * 0x01010101u;
        hist[(unsigned)h & (CH_HIST - 1u)] = rep;
        hist[((unsigned)h & (CH_HIST - 1u)) + CH_HIST] = rep;
    }
    if (tid < CH_WARPS) done[tid] = 0u;
    if (tid == 0) stopped = 0u;
    __syncthreads();
    if (warp < CH_WARPS) {
        chain_warp(hist, cand, far_bits, done, masks, &stopped, lo, hi, ctl);
    } else if (warp == CH_WARPS) {
        chain_publish(hist, done, &stopped, codes, cmask, lo, hi, ctl);
    } else if (mid_index(warp) < CH_MWARPS) {
        chain_mid(mid_index(warp), hist, cand, done, &stopped, far_bits, far_tag, lo, groups);
    }
}
"#;
