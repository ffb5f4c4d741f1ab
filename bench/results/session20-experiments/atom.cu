#include <cstdio>
#include <cuda_runtime.h>
__device__ __forceinline__ unsigned hsh(unsigned x) { x ^= x >> 16; x *= 0x7feb352dU; x ^= x >> 15; x *= 0x846ca68bU; x ^= x >> 16; return x; }
template <int V>
__global__ void k(unsigned long long *out, int iters, int active, unsigned range) {
    __shared__ unsigned sh[32 * 8 * 32 + 32 * 128];
    unsigned tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    for (unsigned i = tid; i < sizeof(sh) / 4; i += blockDim.x) sh[i] = 0;
    __syncthreads();
    if (warp >= (unsigned)active) return;
    unsigned *mine = sh + warp * 256 + lane;
    unsigned *cnt = sh + 32 * 256 + warp * 128;
    long long t0 = clock64();
    for (int it = 0; it < iters; it++) {
        unsigned x[4];
        #pragma unroll
        for (int u = 0; u < 4; u++) x[u] = hsh(it * 4096 + u * 1024 + tid + blockIdx.x * 77777) % range;
        #pragma unroll
        for (int u = 0; u < 4; u++) {
            if (V == 0) atomicOr(mine + 32 * (x[u] >> 5), 1u << (x[u] & 31));
            if (V == 1) atomicAdd(cnt + (x[u] >> 1), 1u << (16 * (x[u] & 1)));
            if (V == 2) atomicAdd(cnt + (x[u] & 127), 1u);
            if (V == 3) atomicOr(cnt + (x[u] >> 5), 1u << (x[u] & 31));
        }
    }
    long long t = clock64() - t0;
    if (lane == 0) atomicAdd(out, (unsigned long long)t);
    if (lane == 0) atomicAdd(out + 1, (unsigned long long)sh[warp * 256]);
}
int main() {
    unsigned long long *d; cudaMalloc(&d, 16);
    const char *names[] = {"or lane-private bitset", "add 16-bit counts (x>>1)", "add word x&127", "or shared warp bitset"};
    for (int v = 0; v < 4; v++) for (int active : {1, 8, 32}) for (unsigned range : {256u, 64u}) {
        cudaMemset(d, 0, 16);
        int iters = 2000;
        if (v == 0) k<0><<<132, 1024>>>(d, iters, active, range);
        if (v == 1) k<1><<<132, 1024>>>(d, iters, active, range);
        if (v == 2) k<2><<<132, 1024>>>(d, iters, active, range);
        if (v == 3) k<3><<<132, 1024>>>(d, iters, active, range);
        unsigned long long h[2]; cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
        printf("%-28s warps %2d range %3u: %.1f cycles per 4 atomics a lane\n", names[v], active, range, (double)h[0] / (132.0 * active * iters));
    }
    return 0;
}
