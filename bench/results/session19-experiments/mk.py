# Session 19 experiment patches on kernels-gen/src/source.rs: pr (groups of options wholly past
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
    else:
        raise SystemExit('unknown ' + v)
open('kernels-gen/src/source.rs', 'w').write(src)
