# Session 18 experiment patches on kernels-gen/src/source.rs: x1 (arrival by an atom that returns
# the count), x3 (codes stored by atomic xor on their aligned 32-bit word instead of byte stores),
# u2 / u6 / u8 (the verification's VERIFY_UNROLL 2 / 6 / 8 instead of 4; against 4.7), lb8
# (`verify` held to 32 registers).
import sys
src = open('kernels-gen/src/source.rs').read()
def sub(a, b):
    global src
    assert src.count(a) == 1, a
    src = src.replace(a, b)
for v in sys.argv[1:]:
    if v == 'x1':
        sub('''    asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + CTL_ARRIVED) : "memory");
    u64 all = (u64)(r + 1u) * gridDim.x;
    u64 arrived;
    do {
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
    } while (arrived < all);''', '''    u64 all = (u64)(r + 1u) * gridDim.x;
    u64 arrived;
    asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
    arrived += 1u;
    while (arrived < all) {
        asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl + CTL_ARRIVED) : "memory");
    }''')
    elif v == 'x3':
        sub('''struct __align__(8) Option''', '''// Heap n's code, which is `old`, becomes c: one atomic xor on its aligned 32-bit word (byte
// stores from many SMs into one sector are slow to complete).
__device__ __forceinline__ void put_code(code_t *codes, u64 cmask, u64 n, unsigned old, unsigned c) {
    u64 i = n & cmask;
    const u64 per = 4u / sizeof(code_t);
    unsigned sh = 8u * (unsigned)sizeof(code_t) * (unsigned)(i & (per - 1u));
    atomicXor((unsigned *)(codes + (i - (i & (per - 1u)))), (old ^ c) << sh);
}

struct __align__(8) Option''')
        sub('''                    if (c < CODES) codes[n & cmask] = (code_t)c;''',
            '''                    unsigned old = (unsigned)SOURCE(n);
                    if (c < CODES && c != old) put_code(codes, cmask, n, old, c);''')
        sub('''                } else if (c != (unsigned)SOURCE(n)) {
                    codes[n & cmask] = (code_t)c;''', '''                } else if (c != (unsigned)SOURCE(n)) {
                    put_code(codes, cmask, n, (unsigned)SOURCE(n), c);''')
        # the ring must hold the codes of the next round's entering heaps as they are in memory
        sub('''        finish_round(ctl, round, round_end, round_end + 1, ring, codes, cmask, p, end);''',
            '''        finish_round(ctl, round, round_end, round_end + 1, ring, codes, cmask, p, min(end + window, hi));''')
    elif v == 'lb8':
        # at most 32 registers for `verify` (8 blocks of 256 threads an SM): 4 beside `spec`
        sub('extern "C" __global__ void __launch_bounds__(VERIFY_THREADS) verify(', 'extern "C" __global__ void __launch_bounds__(VERIFY_THREADS, 8) verify(')
    elif v in ('u2', 'u6', 'u8'):
        # the verification's splits a step: 32 * VERIFY_UNROLL between two coverage checks
        sub('const VERIFY_UNROLL: usize = 4;', 'const VERIFY_UNROLL: usize = %s;' % v[1:])
    else:
        raise SystemExit('unknown ' + v)
open('kernels-gen/src/source.rs', 'w').write(src)
