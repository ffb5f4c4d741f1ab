
// The kernels of the GPU engine (`spec`, `decode`, `verify`, `mex`): the same text for every
// game, after the game's macros and tables above.
#define NONE 0xffffffffffffffffull
// The key of a rare heap, when options may read rare heaps (RARE_SOURCES): all ones, so that
// the xor with an option's key is at least KEYS, the discard bit.
#define SENTINEL ((key_type)~0u)

__device__ __forceinline__ unsigned rare_parity(u64 n) {
    return DOMAIN ? (unsigned)((n ^ (u64)DOMAIN_K) & 1) : 0u;
}

// The common value at heap n whose key is c (octal_core::codec::Codec::decode).
__device__ __forceinline__ u16 decode_common(u64 n, unsigned c) {
    unsigned low = c & ((1u << DROP_BIT) - 1u);
    unsigned v = ((c >> DROP_BIT) << (DROP_BIT + 1)) | low;
    unsigned parity = __popc(v & MASK) & 1u;
    unsigned want = rare_parity(n) ^ 1u;
    return (u16)(v | ((parity ^ want) << DROP_BIT));
}

// The control words of `spec` (CTL_*, see kernels_gen::ctl): the heap whose mex left the key
// space (out), rounds run (out), the first heap changed (2 n, or 2 n + 1 in the heap's first
// round) and the first heap whose mex overflowed in rounds r % 3, the grid barrier's arrivals
// (one per block and round, never reset within a launch). The host sets every word to NONE but
// the rounds and the arrivals (zero) before a launch.

#if RING
// Copies the keys of heaps [from, to) (widened to whole 16-byte groups: the keys buffer is
// padded, and its ring of cmask + 1 heaps is a multiple of 16) into the ring, 16 bytes a thread
// at a time, past L1.
__device__ __forceinline__ void load_ring(key_type *ring, const key_type *keys, u64 cmask, u64 from, u64 to) {
    const u64 per = 16u / sizeof(key_type);
    for (u64 h = (from & ~(per - 1u)) + per * threadIdx.x; h < to; h += per * SPEC_THREADS) {
        *(uint4 *)(ring + (h & (RING - 1))) = __ldcg((const uint4 *)(keys + (h & cmask)));
    }
}
#endif

// Thread 0's part of the end of round r (after a block barrier): folds the block's first changed
// and first overflowing heap into the round's rotating words and waits until every block of the
// (cooperative, hence co-resident) grid has arrived. The barrier counts arrivals without reset,
// so nothing waits on a last arriver. The arrival returns the count, so the last block to arrive
// does not poll at all, and the others start polling from what it told them (1% faster than a
// `red` and polls).
__device__ __forceinline__ void arrive(u64 *ctl, unsigned r, u64 *block_min) {
    unsigned rot = r % 3u;
    if (block_min[0] != NONE) atomicMin(ctl + CTL_CHANGED + rot, block_min[0]);
    if (block_min[1] != NONE) atomicMin(ctl + CTL_OVER + rot, block_min[1]);
    // Release: this block's keys and round minima before the arrival; acquire: every block's
    // after it (bar.sync carries both to the block's other threads).
    u64 all = (u64)(r + 1u) * gridDim.x;
    u64 arrived;
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
    arrived += 1u;
    while (arrived < all) {
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
    }
    block_min[0] = NONE;
    block_min[1] = NONE;
}

// The rest of the end of round r, after a block barrier that follows `arrive`: while thread 0
// reads the grid's first changed heap and first overflow into *changed and *over (shared
// memory), the block reloads its ring with the keys of heaps [from, to) (see `spec`). Writes
// before the arrival are visible after it to reads past L1 (__ldcg).
__device__ __forceinline__ void finish_round(u64 *ctl, unsigned r, u64 *changed, u64 *over,
        key_type *ring, const key_type *keys, u64 cmask, u64 from, u64 to) {
    unsigned rot = r % 3u;
    if (threadIdx.x == 0) {
        *changed = *(volatile u64 *)(ctl + CTL_CHANGED + rot);
        *over = *(volatile u64 *)(ctl + CTL_OVER + rot);
    }
#if RING
    load_ring(ring, keys, cmask, from, to);
#endif
    __syncthreads();
}

struct Option { unsigned dist; unsigned key; };

// Option j: from the block's copy in shared memory (key << DIST_BITS | distance, one word), or
// from the table (distance, key) in global memory when it does not fit.
__device__ __forceinline__ Option option_at(const unsigned *opts, unsigned j) {
#if OPTIONS_SHARED
    unsigned v = opts[j];
    return Option{v & ((1u << DIST_BITS) - 1u), v >> DIST_BITS};
#else
    uint2 v = __ldg((const uint2 *)opts + j);
    return Option{v.x, v.y};
#endif
}

// The first k >= the first heap's of block b at or past p with k = res mod the block's warps (the
// block's heaps are b + blocks * k; warp w takes those with k = w mod warps).
__device__ __forceinline__ u64 first_k(u64 p, u64 blocks, u64 b, unsigned res) {
    u64 k = (p + blocks - 1u - b) / blocks;
    return k + (res + SPEC_THREADS / 32u - (unsigned)(k % (SPEC_THREADS / 32u))) % (SPEC_THREADS / 32u);
}

#if RING
#define SOURCE(h) ring[(h) & (RING - 1)]
// The key of heap n - d (32-bit ring arithmetic: the ring is a power of two below 2^32).
#define SOURCE_BACK(n, d) ring[((unsigned)(n) - (d)) & (RING - 1)]
#else
#define SOURCE(h) __ldcg(keys + ((h) & cmask))
#define SOURCE_BACK(n, d) __ldcg(keys + (((n) - (d)) & cmask))
#endif

// Key of the option j of heap n: the key of its source heap n - d xor the option's key. With
// RARE_SOURCES, KEYS (the discard bit) for a source that is rare (the sentinel) or not a heap
// (d >= n).
__device__ __forceinline__ unsigned option_key(const unsigned *opts, const key_type *ring, const key_type *keys,
        u64 cmask, u64 n, unsigned j) {
    Option o = option_at(opts, j);
    unsigned x = (unsigned)SOURCE_BACK(n, o.dist) ^ o.key;
#if RARE_SOURCES
    return (u64)o.dist < n ? min(x, (unsigned)KEYS) : (unsigned)KEYS;
#else
    return x;
#endif
}

// Marks, in this lane's bitset, the options j in [from, to) of heap n (the lanes split them):
// SPEC_UNROLL options a lane at a time, their loads first, then the marks (shared atomics, which
// nothing waits for), so that the loads overlap. A lane past `to` marks option to - 1 again,
// which changes nothing and keeps the loop free of branches (they cost a third of its
// instructions). Leaves word w of the bitset or-ed over the warp in lane w % 32's got[w / 32]
// (registers: storing the words and reading them back cost shared-memory bandwidth, which the
// marking is short of) and clears the lanes' bitsets again: eight words at a time, every word
// read and cleared by one atomic exchange (a load and a store cost more of that bandwidth), then
// the reductions (independent, so that they overlap: one after another they took ~1 150 cycles
// a heap, a quarter of its time).
__device__ __forceinline__ void mark_options(const unsigned *opts, const key_type *ring, const key_type *keys,
        u64 cmask, unsigned *mine, unsigned (&got)[GOT], unsigned lane, u64 n, unsigned from, unsigned to) {
    #pragma unroll
    for (unsigned k = 0; k < GOT; k++) got[k] = 0u;
    for (unsigned j0 = from + lane; j0 < to; j0 += 32u * SPEC_UNROLL) {
        unsigned x[SPEC_UNROLL];
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) x[u] = option_key(opts, ring, keys, cmask, n, min(j0 + 32u * u, to - 1u));
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
    }
    __syncwarp();
    #pragma unroll
    for (unsigned w0 = 0; w0 < WORDS; w0 += 8u) {
        unsigned v[8];
        #pragma unroll
        for (unsigned u = 0; u < 8u; u++) v[u] = w0 + u < WORDS ? atomicExch(mine + 32u * (w0 + u), 0u) : 0u;
        #pragma unroll
        for (unsigned u = 0; u < 8u; u++) v[u] = __reduce_or_sync(0xffffffffu, v[u]);
        #pragma unroll
        for (unsigned u = 0; u < 8u; u++) {
            if (w0 + u < WORDS) {
                if ((w0 + u) % 32u == lane) got[(w0 + u) / 32u] = v[u];
            }
        }
    }
    __syncwarp();
}

// Moves into the far set si of heap n its options whose sources lie before p, as far as the
// lanes' samples of the distances tell (the first sample past n - p bounds them): options
// [s, settled[si]) join the set, which then holds [s, n_options). The bound only falls as p
// advances; min() keeps the set's range whole regardless.
__device__ __forceinline__ void settle(const unsigned *opts, const key_type *ring, const key_type *keys, u64 cmask,
        unsigned *far, unsigned *settled, unsigned lane, u64 n, unsigned si, unsigned sample, unsigned near, u64 p) {
    unsigned *far_set = far + STRIDE * si;
    unsigned above_t = __ballot_sync(0xffffffffu, sample > (unsigned)(n - p));
    unsigned s_old = settled[si];
    unsigned s = min(above_t ? (unsigned)(__ffs(above_t) - 1) * near / 32u : near, s_old);
    for (unsigned j = s + lane; j < s_old; j += 32u) {
        unsigned x = option_key(opts, ring, keys, cmask, n, j);
        atomicOr(far_set + (x >> 5), 1u << (x & 31u));
    }
    __syncwarp();
    if (lane == 0) settled[si] = s;
}

// Settles the heaps of block b in the window [p, end) whose k = res mod the block's warps.
__device__ __forceinline__ void settle_heaps(const unsigned *opts, const key_type *ring, const key_type *keys, u64 cmask,
        unsigned *far, unsigned *settled, unsigned lane, u64 blocks, u64 b, unsigned res, unsigned sample,
        unsigned near, u64 p, u64 end) {
    for (u64 k = first_k(p, blocks, b, res); b + blocks * k < end; k += SPEC_THREADS / 32u) {
        settle(opts, ring, keys, cmask, far, settled, lane, b + blocks * k, (unsigned)(k % FAR_SETS), sample, near, p);
    }
}

// Speculates heaps [lo, hi) by rounds over a window of `window` heaps (at most WINDOW_MAX and
// (FAR_SETS - 2) blocks): each round every heap of the window is computed from the keys of the
// round before, heap n by a warp of block n % blocks (the lanes split the options, each marking
// its own bitset; the bitsets are or-ed and the first free key taken) and stored if it changed
// (always in its first round: the ring holds the keys of the window and the heaps before it,
// reloaded after every round, and no key of a heap entering it).
// Options whose source lies before p read final values: a heap marks them once into its block's
// far set and the rounds recompute only the others. In its first round a heap marks the
// options reaching more than `window` back (and nothing else: its near sources are guesses too
// young to be worth the time, and the round's slowest warp would be the one doing both) and
// counts as changed; as p advances, its options whose sources p has passed join the far set too,
// while thread 0 waits at the grid barrier (`settle`: bounded by 32 samples of the distances, so
// a few stay in the rounds a little longer). The heaps before the first one that changed agree
// with their own options: they are the values of the recurrence, and so is the first changed
// heap, computed from them, unless it was in its first round; the window moves past it (to it,
// in that case). A round's first change is kept as 2 n + 1 for a heap in its first round and 2 n
// otherwise. A launch ends when the window passes hi, or at the first heap, so proved, whose mex
// leaves the key space.
extern "C" __global__ void __launch_bounds__(SPEC_THREADS) spec(key_type *keys, u64 cmask, u64 lo, u64 hi, unsigned window, u64 *ctl,
        const uint2 *table, unsigned n_options) {
    extern __shared__ __align__(16) unsigned char smem[];
    __shared__ u64 block_min[2], round_end[2];
    // Options [settled[si], n_options) of far set si's heap are in that set.
    __shared__ unsigned settled[FAR_SETS];
    unsigned *bitsets = (unsigned *)smem;
    unsigned *far = bitsets + STRIDE * SPEC_THREADS;
#if OPTIONS_SHARED
    unsigned *opts = far + STRIDE * FAR_SETS;
#else
    const unsigned *opts = (const unsigned *)table;
#endif
#if RING
    // 16-byte aligned: a multiple of four options.
    key_type *ring = (key_type *)(far + STRIDE * FAR_SETS + (OPTIONS_SHARED ? (OPTIONS_CAP + 3) / 4 * 4 : 0));
#else
    key_type *ring = 0;
#endif
    unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
#if OPTIONS_SHARED
    for (unsigned j = tid; j < n_options; j += SPEC_THREADS) {
        uint2 o = table[j];
        opts[j] = o.x | o.y << DIST_BITS;
    }
#endif
    for (unsigned k = tid; k < STRIDE * SPEC_THREADS; k += SPEC_THREADS) bitsets[k] = 0u;
#if RING
    // The options reach at most the last one's distance back (they are sorted by distance).
    u64 reach = table[n_options - 1u].x;
    load_ring(ring, keys, cmask, lo > reach ? lo - reach : 0u, min(lo + 2ull * window, hi));
#endif
    if (tid == 0) {
        block_min[0] = NONE;
        block_min[1] = NONE;
    }
    // Options [0, near) reach at most `window` back (the options are sorted by distance).
    unsigned near = 0, above = n_options;
    while (near < above) {
        unsigned mid = (near + above) / 2u;
        if (table[mid].x <= window) near = mid + 1u; else above = mid;
    }
    __syncthreads();
    // Word w of this lane's bitset: mine[32 * w] (one bank per lane).
    unsigned *mine = bitsets + warp * 32u * STRIDE + lane;
    // Lane l's sample: the distance of option l * near / 32 (a bound on the options with proved
    // sources, below).
    unsigned sample = table[lane * near / 32u].x;
    u64 blocks = gridDim.x, b = blockIdx.x;
    u64 p = lo, fresh_from = lo;
    unsigned round = 0;
    while (p < hi) {
        u64 end = min(p + window, hi);
        if (b == 0 && tid == 0) {
            ctl[CTL_CHANGED + (round + 1u) % 3u] = NONE;
            ctl[CTL_OVER + (round + 1u) % 3u] = NONE;
        }
        for (u64 k = first_k(p, blocks, b, warp); b + blocks * k < end; k += SPEC_THREADS / 32u) {
            u64 n = b + blocks * k;
            unsigned si = (unsigned)(k % FAR_SETS);
            unsigned *far_set = far + STRIDE * si;
            bool fresh = n >= fresh_from;
            // Options [settled[si], n_options) are in the far set (see `settle`), the round
            // marks the others: the keys taken are got | far_set (a fresh heap's marks are all
            // far, and become its far set). Two calls, not one with chosen bounds: each is inlined
            // for its case, and one call ran the speculation 2% slower.
            unsigned got[GOT];
            if (fresh) {
                mark_options(opts, ring, keys, cmask, mine, got, lane, n, near, n_options);
                #pragma unroll
                for (unsigned w0 = 0; w0 < WORDS; w0 += 32u) {
                    if (w0 + lane < WORDS) far_set[w0 + lane] = got[w0 / 32u];
                }
                if (lane == 0) settled[si] = near;
            } else {
                mark_options(opts, ring, keys, cmask, mine, got, lane, n, 0u, settled[si]);
                #pragma unroll
                for (unsigned w0 = 0; w0 < WORDS; w0 += 32u) {
                    if (w0 + lane < WORDS) got[w0 / 32u] |= far_set[w0 + lane];
                }
            }
            unsigned c = KEYS;
            #pragma unroll
            for (unsigned w0 = 0; w0 < WORDS; w0 += 32u) {
                unsigned w = w0 + lane;
                unsigned taken = w < WORDS ? got[w0 / 32u] : 0xffffffffu;
                unsigned free_words = __ballot_sync(0xffffffffu, ~taken != 0u);
                if (free_words && c == KEYS) {
                    unsigned f = (unsigned)(__ffs(free_words) - 1);
                    unsigned t = __shfl_sync(0xffffffffu, taken, f);
                    c = 32u * (w0 + f) + (unsigned)(__ffs(~t) - 1);
                }
            }
            if (lane == 0) {
                if (fresh) {
                    if (c < KEYS) keys[n & cmask] = (key_type)c;
                    atomicMin(block_min, 2u * n + 1u);
                } else if (c >= KEYS) {
                    atomicMin(block_min + 1, n);
                    atomicMin(block_min, 2u * n);
                } else if (c != (unsigned)SOURCE(n)) {
                    keys[n & cmask] = (key_type)c;
                    atomicMin(block_min, 2u * n);
                }
            }
        }
        // Heaps [p, end) may have changed (or entered); the next window reads no other heap
        // past p (its heaps past end are in their first round and read only heaps before p).
        // While thread 0 waits for the grid, the other warps settle their heaps (warp 1 warp 0's
        // too): this work used to start each heap's turn, where it cost ~1 100 cycles a heap.
        __syncthreads();
        if (tid == 0) {
            arrive(ctl, round, block_min);
        } else if (warp != 0) {
            settle_heaps(opts, ring, keys, cmask, far, settled, lane, blocks, b, warp, sample, near, p, end);
            if (warp == 1u) settle_heaps(opts, ring, keys, cmask, far, settled, lane, blocks, b, 0u, sample, near, p, end);
        }
        __syncthreads();
        finish_round(ctl, round, round_end, round_end + 1, ring, keys, cmask, p, end);
        u64 changed = round_end[0];
        u64 over = round_end[1];
        round++;
        if (over != NONE && 2u * over == changed) {
            if (b == 0 && tid == 0) ctl[CTL_OVERFLOW] = over;
            break;
        }
        fresh_from = end;
        p = changed == NONE ? end : (changed & 1u) ? changed / 2u : changed / 2u + 1u;
    }
    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;
}

// The values of heaps [lo, hi) from their keys, into the ring (heap n at n & cmask, as the
// keys) and, for the heaps below prefix + VERIFY_PAD, into the prefix too.
extern "C" __global__ void decode(const key_type *keys, u16 *ring, u16 *first, u64 prefix, u64 cmask, u64 lo, u64 hi) {
    u64 n = lo + (u64)blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= hi) return;
    u16 v = decode_common(n, keys[n & cmask]);
    ring[n & cmask] = v;
    if (n < prefix + VERIFY_PAD) first[n] = v;
}

// Flags heap n for the host: into the list flags[2 ..] while it has room (flags[1] counts the
// heaps flagged), else into flags[0], the least heap flagged past the list. Every heap below
// flags[0] that failed is listed.
__device__ __forceinline__ void flag(u64 *flags, u64 n) {
    u64 k = atomicAdd(flags + 1, 1ull);
    if (k < FLAG_LIST) flags[2 + k] = n; else atomicMin(flags, n);
}

// Word w of the rare-class values below c whose lack keeps a proof open: the rare-class bits of
// the values 32 w .. 32 w + 31 that are below c.
__device__ __forceinline__ unsigned needed(unsigned w, unsigned c, unsigned par) {
    unsigned base = __popc((w << 5) & MASK) & 1u;
    unsigned rare = base == par ? EVEN_BITS : ~EVEN_BITS;
    return w < (c >> 5) ? rare : rare & ((1u << (c & 31u)) - 1u);
}

// The union over the warp of word w of its bitsets (see `verify`).
__device__ __forceinline__ unsigned seen_word(const unsigned *mine, unsigned w) {
#if VERIFY_SETS == 32
    return __reduce_or_sync(0xffffffffu, mine[32u * w]);
#else
    return mine[w];
#endif
}

// Moves *w past the words whose needed values the warp has all seen (they stay seen); true when
// no word up to c's is left, that is, when every rare-class value below c has been seen.
__device__ __forceinline__ bool covered(const unsigned *mine, unsigned c, unsigned par, unsigned *w) {
    for (; *w <= (c >> 5u); (*w)++) {
        if (needed(*w, c, par) & ~seen_word(mine, *w)) return false;
    }
    return true;
}

// Proves the candidates of heaps lo, lo + stride, lo + 2 stride, ... below hi (a batch, or one
// device's share of it) given every value before them: a common candidate c at heap n is G(n)
// when each rare-class value below c is the value of an option (the speculative pass marked
// every common option). One warp per heap: the lanes take 32 splits a + (h - a) at a time
// (a = 1, 2, ...), VERIFY_UNROLL steps of them with every load issued before the first mark, and
// mark every value they see (the check looks only at the rare-class values below c; every value
// is below 2^VALUE_BITS). Each lane marks its own bitset when values fit in 16 words (word w of
// lane l at 32 w + l: no two lanes' marks meet), else the warp shares one. The smaller part of a
// split comes from `first` (the values of heaps below prefix + VERIFY_PAD: a step's loads stay
// in it, the lanes past a split's end mark c, which proves nothing), the larger one and the
// heap's own from the ring (heap h at h & cmask: recent heaps only; cmask < 2^32). Splits stop
// below `prefix`. The least heap that fails, whose candidate is rare, or that would need a split
// past the prefix or `budget` splits, is flagged (`flag`); the host then checks those heaps
// exactly. Every 16 steps a warp stops if a heap below its own was flagged past the list.
extern "C" __global__ void __launch_bounds__(VERIFY_THREADS) verify(const u16 *g, const u16 *first, u64 prefix, u64 cmask, u64 lo, u64 hi, u64 *flags,
        u64 budget, u64 stride) {
    __shared__ unsigned bitsets[(VERIFY_THREADS / 32) * VERIFY_SETS * VALUE_WORDS];
    unsigned lane = threadIdx.x & 31u;
    unsigned *sets = bitsets + (threadIdx.x >> 5) * VERIFY_SETS * VALUE_WORDS;
    unsigned *mine = sets + lane % VERIFY_SETS;
    u64 n = lo + ((u64)blockIdx.x * (VERIFY_THREADS / 32) + (threadIdx.x >> 5)) * stride;
    if (n >= hi) return;
    unsigned c = g[n & cmask];
    unsigned par = rare_parity(n);
    if ((__popc(c & MASK) & 1u) == par) {
        if (lane == 0) flag(flags, n);
        return;
    }
    for (unsigned w = lane; w < VERIFY_SETS * VALUE_WORDS; w += 32u) sets[w] = 0u;
    __syncwarp();
#define MARK(value) { unsigned x_ = (value); atomicOr(mine + VERIFY_SETS * (x_ >> 5), 1u << (x_ & 31u)); }
    if (lane == 0) {
        for (unsigned k = 0; k < N_WHOLE; k++) if (n == (u64)WHOLE[k]) MARK(0u);
        for (unsigned k = 0; k < N_SINGLE; k++) if (n > (u64)SINGLE[k]) MARK(g[(n - SINGLE[k]) & cmask]);
    }
    __syncwarp();
    // Split a + (n - BREAK[k] - a) is a move for 1 <= a <= lim[k] (tried below the prefix); its
    // larger part is at (top[k] - a) & cmask in the ring.
    unsigned lim[BREAK_SLOTS], top[BREAK_SLOTS];
    unsigned longest = 0, cm = (unsigned)cmask;
    #pragma unroll
    for (unsigned k = 0; k < N_BREAK; k++) {
        u64 i = BREAK[k];
        lim[k] = n >= i ? (unsigned)min(min((n - i) / 2u, prefix - 1u), budget) : 0u;
        top[k] = (unsigned)(n - i);
        longest = max(longest, lim[k]);
    }
    unsigned w = 0;
    bool done = covered(mine, c, par, &w);
    for (unsigned a0 = 1; !done && a0 <= longest; a0 += 32u * VERIFY_UNROLL) {
        unsigned x[VERIFY_UNROLL][BREAK_SLOTS];
        #pragma unroll
        for (unsigned u = 0; u < VERIFY_UNROLL; u++) {
            unsigned a = a0 + 32u * u + lane;
            unsigned small = first[a];
            #pragma unroll
            for (unsigned k = 0; k < N_BREAK; k++) x[u][k] = small ^ g[(top[k] - a) & cm];
        }
        #pragma unroll
        for (unsigned u = 0; u < VERIFY_UNROLL; u++) {
            #pragma unroll
            for (unsigned k = 0; k < N_BREAK; k++) MARK(a0 + 32u * u + lane <= lim[k] ? x[u][k] : c);
        }
        __syncwarp();
        done = covered(mine, c, par, &w);
        if ((a0 / (32u * VERIFY_UNROLL)) % 16u == 15u) {
            unsigned below = lane == 0 ? (unsigned)(*(volatile u64 *)flags < n) : 0u;
            if (__shfl_sync(0xffffffffu, below, 0)) return;
        }
    }
#undef MARK
    if (!done && lane == 0) flag(flags, n);
}

// Marks in seen[y * VALUE_WORDS ..] the value of every option of heap n = heaps[y] (y the grid's
// second index; whole-heap and single-heap moves, and every split a + (n - BREAK[k] - a)), the
// threads of the grid's row taking the splits a = 1, 2, ... in turn, each block into its own
// bitset first. The host has zeroed `seen`; the first clear bit of a heap's words is then G(n).
// The smaller part of a split is read from `first` (the host asks only for heaps whose smaller
// parts all lie there) and the larger one from the ring.
extern "C" __global__ void __launch_bounds__(VERIFY_THREADS) mex(const u16 *g, const u16 *first, u64 cmask, const u64 *heaps, unsigned *seen) {
    __shared__ unsigned set[VALUE_WORDS];
    u64 n = heaps[blockIdx.y];
    seen += (u64)blockIdx.y * VALUE_WORDS;
    for (unsigned w = threadIdx.x; w < VALUE_WORDS; w += blockDim.x) set[w] = 0u;
    __syncthreads();
#define MARK(value) { unsigned x_ = (value); atomicOr(set + (x_ >> 5), 1u << (x_ & 31u)); }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        for (unsigned k = 0; k < N_WHOLE; k++) if (n == (u64)WHOLE[k]) MARK(0u);
        for (unsigned k = 0; k < N_SINGLE; k++) if (n > (u64)SINGLE[k]) MARK(g[(n - SINGLE[k]) & cmask]);
    }
    u64 step = (u64)gridDim.x * blockDim.x;
    for (unsigned k = 0; k < N_BREAK; k++) {
        u64 i = BREAK[k];
        if (n < i + 2u) continue;
        u64 top = n - i, lim = top / 2u;
        for (u64 a = 1u + (u64)blockIdx.x * blockDim.x + threadIdx.x; a <= lim; a += step) {
            MARK(first[a] ^ g[(top - a) & cmask]);
        }
    }
#undef MARK
    __syncthreads();
    for (unsigned w = threadIdx.x; w < VALUE_WORDS; w += blockDim.x) {
        if (set[w]) atomicOr(seen + w, set[w]);
    }
}
