# Session 19 experiment patches on kernels-gen/src/source.rs: sm (the settle loop through the
# lanes' own bitsets, mark_options, then or-ed into the slot, after 4.9), pr (groups of options wholly past
# the range skipped by a warp-uniform predicate, after 4.9), xc (the lanes' bitset words read
# and cleared by atomicExch, after the registers' change), pk (a shared option packed in one
# 32-bit word, code << 20 | distance: one shared-memory wavefront a warp's load instead of two;
# Officers only: distances below 2^20, codes below 2^12).
import sys
src = open('kernels-gen/src/source.rs').read()
def sub(a, b):
    global src
    assert src.count(a) == 1, a
    src = src.replace(a, b)
for v in sys.argv[1:]:
    if v == 'pk':
        sub('''struct __align__(8) Option { unsigned dist; unsigned code; };

// Option j: from the block's copy in shared memory, or from the table when it does not fit.
__device__ __forceinline__ Option option_at(const Option *opts, unsigned j) {
#if OPTIONS_SHARED
    return opts[j];
#else
    return Option{OPTION_DIST[j], OPTION_CODE[j]};
#endif
}''', '''struct Option { unsigned v; };
struct OptionU { unsigned dist; unsigned code; };

// Option j: from the block's copy in shared memory, or from the table when it does not fit.
__device__ __forceinline__ OptionU option_at(const Option *opts, unsigned j) {
#if OPTIONS_SHARED
    unsigned v = opts[j].v;
    return OptionU{v & 0xfffffu, v >> 20};
#else
    return OptionU{OPTION_DIST[j], OPTION_CODE[j]};
#endif
}''')
        sub('''    Option o = option_at(opts, j);''', '''    OptionU o = option_at(opts, j);''')
        sub('''(OPTIONS_SHARED ? (N_OPTIONS + 1) / 2 * 2 : 0)''', '''(OPTIONS_SHARED ? (N_OPTIONS + 3) / 4 * 4 : 0)''')
        sub('''        opts[j].dist = OPTION_DIST[j];
        opts[j].code = OPTION_CODE[j];''', '''        opts[j].v = OPTION_DIST[j] | (OPTION_CODE[j] << 20);''')
    elif v == 'xc':
        # the lanes' bitset words read and cleared by one shared atomic exchange each
        sub('''        for (unsigned u = 0; u < 8u; u++) v[u] = w0 + u < WORDS ? mine[32u * (w0 + u)] : 0u;''',
            '''        for (unsigned u = 0; u < 8u; u++) v[u] = w0 + u < WORDS ? atomicExch(mine + 32u * (w0 + u), 0u) : 0u;''')
        sub('''                mine[32u * (w0 + u)] = 0u;
''', '')
    elif v == 'pr':
        # the marking loop's groups of 32 options wholly past `to` skipped by a warp-uniform
        # predicate (they marked option to - 1 again: loads and atomics for nothing)
        sub('''    for (unsigned j0 = from + lane; j0 < to; j0 += 32u * SPEC_UNROLL) {
        unsigned x[SPEC_UNROLL];
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) x[u] = option_code(opts, ring, codes, cmask, n, min(j0 + 32u * u, to - 1u));
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
    }''', '''    for (unsigned b0 = from; b0 < to; b0 += 32u * SPEC_UNROLL) {
        unsigned x[SPEC_UNROLL];
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) {
            if (b0 + 32u * u < to) x[u] = option_code(opts, ring, codes, cmask, n, min(b0 + 32u * u + lane, to - 1u));
        }
        #pragma unroll
        for (unsigned u = 0; u < SPEC_UNROLL; u++) {
            if (b0 + 32u * u < to) atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
        }
    }''')
    elif v == 'sm':
        # the settle loop marks the lanes' own bitsets (mark_options: no two lanes' atomics meet)
        # and ors the warp's union into the slot, instead of 32 lanes' atomics on its words
        sub('''        unsigned *far, unsigned *settled, unsigned lane, u64 n, unsigned si, unsigned sample, unsigned near, u64 p) {
    unsigned *slot = far + WORDS * si;
    unsigned above_t = __ballot_sync(0xffffffffu, sample > (unsigned)(n - p));
    unsigned s_old = settled[si];
    unsigned s = min(above_t ? (unsigned)(__ffs(above_t) - 1) * near / 32u : near, s_old);
    for (unsigned j = s + lane; j < s_old; j += 32u) {
        unsigned x = option_code(opts, ring, codes, cmask, n, j);
        atomicOr(slot + (x >> 5), 1u << (x & 31u));
    }
    __syncwarp();''', '''        unsigned *far, unsigned *settled, unsigned *mine, unsigned lane, u64 n, unsigned si, unsigned sample,
        unsigned near, u64 p) {
    unsigned *slot = far + WORDS * si;
    unsigned above_t = __ballot_sync(0xffffffffu, sample > (unsigned)(n - p));
    unsigned s_old = settled[si];
    unsigned s = min(above_t ? (unsigned)(__ffs(above_t) - 1) * near / 32u : near, s_old);
    if (s < s_old) {
        unsigned got[GOT];
        mark_options(opts, ring, codes, cmask, mine, got, lane, n, s, s_old);
        #pragma unroll
        for (unsigned w0 = 0; w0 < WORDS; w0 += 32u) {
            if (w0 + lane < WORDS) slot[w0 + lane] |= got[w0 / 32u];
        }
    }
    __syncwarp();''')
        sub('''        unsigned *far, unsigned *settled, unsigned lane, u64 blocks, u64 b, unsigned res, unsigned sample,
        unsigned near, u64 p, u64 end) {''', '''        unsigned *far, unsigned *settled, unsigned *mine, unsigned lane, u64 blocks, u64 b, unsigned res,
        unsigned sample, unsigned near, u64 p, u64 end) {''')
        sub('''        settle(opts, ring, codes, cmask, far, settled, lane, b + blocks * k,''', '''        settle(opts, ring, codes, cmask, far, settled, mine, lane, b + blocks * k,''')
        sub('''            settle_heaps(opts, ring, codes, cmask, far, settled, lane, blocks, b, warp, sample, near, p, end);
            if (warp == 1u) settle_heaps(opts, ring, codes, cmask, far, settled, lane, blocks, b, 0u, sample, near, p, end);''',
            '''            settle_heaps(opts, ring, codes, cmask, far, settled, mine, lane, blocks, b, warp, sample, near, p, end);
            if (warp == 1u) settle_heaps(opts, ring, codes, cmask, far, settled, mine, lane, blocks, b, 0u, sample, near, p, end);''')
    else:
        raise SystemExit('unknown ' + v)
open('kernels-gen/src/source.rs', 'w').write(src)
