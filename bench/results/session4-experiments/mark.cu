typedef unsigned long long u64;
typedef unsigned short u16;
#define N_OPTIONS 1584
#define WORDS 8
#define RING 65536
#define UNROLL 4
// OPTION_DIST and OPTION_CODE: Officers' option tables, lines 34-301 of kernels-gen/tests/snapshots/officers.cu
// at bff5801 (paste them here to compile: git show bff5801:kernels-gen/tests/snapshots/officers.cu | sed -n 34,301p).
struct __align__(8) Option { unsigned dist; unsigned code; };
__device__ __forceinline__ unsigned hash(unsigned x) { x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16; return x; }
// Block setup shared by the kernels: ring of random codes, options in shared memory.
__device__ __forceinline__ void setup(unsigned char *ring, Option *opts, unsigned *bits, unsigned nbits) {
    for (unsigned h = threadIdx.x; h < RING; h += blockDim.x) ring[h] = (unsigned char)(hash(h) & 255u);
    for (unsigned j = threadIdx.x; j < N_OPTIONS; j += blockDim.x) { opts[j].dist = OPTION_DIST[j]; opts[j].code = OPTION_CODE[j]; }
    for (unsigned k = threadIdx.x; k < nbits; k += blockDim.x) bits[k] = 0u;
    __syncthreads();
}
// M0: a warp a heap, lanes split the options (V2's marking), options from shared memory.
extern "C" __global__ void __launch_bounds__(1024) m0(u64 *out, unsigned rounds, unsigned near, unsigned heaps) {
    extern __shared__ __align__(16) unsigned char smem[];
    unsigned *bits = (unsigned *)smem; unsigned *marks = bits + 1024 * WORDS;
    Option *opts = (Option *)(marks + 32 * WORDS); unsigned char *ring = (unsigned char *)(opts + N_OPTIONS + 160);
    setup(ring, opts, bits, 1024 * WORDS);
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5; unsigned *mine = bits + warp * 32u * WORDS + lane;
    unsigned acc = 0; long long t0 = clock64();
    for (unsigned r = 0; r < rounds; r++) {
        if (warp < heaps) {
            unsigned n = 30000u + r * 364u + blockIdx.x + 132u * warp;
            for (unsigned j0 = lane; j0 < near; j0 += 32u * UNROLL) {
                unsigned x[UNROLL];
                #pragma unroll
                for (unsigned u = 0; u < UNROLL; u++) {
                    unsigned j = j0 + 32u * u; Option o = opts[j];
                    unsigned v = (unsigned)ring[(n - o.dist) & (RING - 1)] ^ o.code;
                    x[u] = (u == 0 || j < near) ? v : x[0];
                }
                #pragma unroll
                for (unsigned u = 0; u < UNROLL; u++) atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
            }
            __syncwarp();
            for (unsigned w = 0; w < WORDS; w++) {
                unsigned taken = __reduce_or_sync(0xffffffffu, mine[32u * w]); mine[32u * w] = 0u;
                if (lane == 0) marks[warp * WORDS + w] = taken;
            }
            __syncwarp();
            if (lane < WORDS) acc += __popc(marks[warp * WORDS + lane]);
        }
        __syncthreads();
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) out[blockIdx.x] = (t1 - t0) / rounds;
    if (acc == 0xffffffffu) out[1000] = acc;
}
// M1: lanes are the block's heaps, warps split the options (uniform: from the constant bank when
// cmode is 0, from shared memory when 1); private bitsets, or-ed over the warps after a barrier.
extern "C" __global__ void __launch_bounds__(1024) m1(u64 *out, unsigned rounds, unsigned near, unsigned cmode) {
    extern __shared__ __align__(16) unsigned char smem[];
    unsigned *bits = (unsigned *)smem; unsigned *marks = bits + 1024 * WORDS;
    Option *opts = (Option *)(marks + 32 * WORDS); unsigned char *ring = (unsigned char *)(opts + N_OPTIONS + 160);
    setup(ring, opts, bits, 1024 * WORDS);
    unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5; unsigned *mine = bits + warp * 32u * WORDS + lane;
    unsigned acc = 0; long long t0 = clock64();
    unsigned j_from = near * warp / 32u, j_to = near * (warp + 1u) / 32u;
    for (unsigned r = 0; r < rounds; r++) {
        unsigned n = 30000u + r * 364u + blockIdx.x + 132u * lane;
        unsigned j = j_from;
        for (; j + UNROLL <= j_to; j += UNROLL) {
            unsigned x[UNROLL];
            #pragma unroll
            for (unsigned u = 0; u < UNROLL; u++) {
                unsigned d, c;
                if (cmode == 0) { d = OPTION_DIST[j + u]; c = OPTION_CODE[j + u]; } else { Option o = opts[j + u]; d = o.dist; c = o.code; }
                x[u] = (unsigned)ring[(n - d) & (RING - 1)] ^ c;
            }
            #pragma unroll
            for (unsigned u = 0; u < UNROLL; u++) atomicOr(mine + 32u * (x[u] >> 5), 1u << (x[u] & 31u));
        }
        for (; j < j_to; j++) {
            unsigned x = (unsigned)ring[(n - OPTION_DIST[j]) & (RING - 1)] ^ OPTION_CODE[j];
            atomicOr(mine + 32u * (x >> 5), 1u << (x & 31u));
        }
        __syncthreads();
        if (threadIdx.x < 32u * WORDS) {
            unsigned l = threadIdx.x & 31u, w = threadIdx.x >> 5, m = 0;
            #pragma unroll 8
            for (unsigned v = 0; v < 32u; v++) { unsigned *q = bits + v * 32u * WORDS + 32u * w + l; m |= *q; *q = 0u; }
            marks[l * WORDS + w] = m;
        }
        __syncthreads();
        if (warp == 0) { unsigned c = 0; for (unsigned w = 0; w < WORDS; w++) c += __popc(marks[lane * WORDS + w]); acc += c; }
    }
    long long t1 = clock64();
    if (threadIdx.x == 0) out[blockIdx.x] = (t1 - t0) / rounds;
    if (acc == 0xffffffffu) out[1000] = acc;
}
