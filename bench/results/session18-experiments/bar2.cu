// Grid-barrier microbenchmark 2 (session 18): cooperative groups' grid.sync against ours, with
// the round's code stores (bytes interleaved over blocks, as the spec kernel's heaps) or without.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
typedef unsigned long long u64;

__device__ __forceinline__ u64 gtime() { u64 t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

__global__ void __launch_bounds__(1024) k(u64 *ctl, unsigned char *codes, unsigned iters, int bar, int stores, int busy, int reload, u64 *out) {
    extern __shared__ __align__(16) unsigned sm[];
    cg::grid_group grid = cg::this_grid();
    unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    unsigned b = blockIdx.x, G = gridDim.x;
    u64 t_start = 0, c_start = 0;
    for (unsigned i = tid; i < 8192; i += 1024) sm[i] = 0;
    unsigned *mine = sm + warp * 256 + lane;
    unsigned *arr32 = (unsigned *)(ctl + 64);
    __syncthreads();
    for (unsigned r = 0; r < iters; r++) {
        if (r == 16 && tid == 0) { t_start = gtime(); c_start = clock64(); }
        if (lane == 0) {
            if (stores == 1 && warp < 24) codes[(b + G * warp) & 4095u] = (unsigned char)r;
            if (stores == 2 && warp < 24) codes[b * 128 + warp] = (unsigned char)r;
            if (stores == 3 && warp < 3) codes[(b + G * warp) & 4095u] = (unsigned char)r;
            if (stores == 4 && warp < 24) ((unsigned *)codes)[(b + G * warp) & 4095u] = r;
        }
        if (bar == 0) {
            grid.sync();
        } else {
            __syncthreads();
            if (tid == 0) {
                if (bar == 1) {
                    u64 v, all = (u64)(r + 1u) * G;
                    asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + 8) : "memory");
                    do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + 8) : "memory"); } while (v < all);
                } else if (bar == 2) {
                    unsigned nb = b == 0 ? 0x80000000u - (G - 1u) : 1u, old, cur;
                    asm volatile("atom.add.release.gpu.u32 %0,[%1],%2;" : "=r"(old) : "l"(arr32), "r"(nb) : "memory");
                    do { asm volatile("ld.acquire.gpu.u32 %0,[%1];" : "=r"(cur) : "l"(arr32) : "memory"); } while (((old ^ cur) & 0x80000000u) == 0);
                } else if (bar == 3) {
                    unsigned all = (r + 1u) * G, v;
                    asm volatile("red.release.gpu.global.add.u32 [%0], 1;" :: "l"(arr32 + 64) : "memory");
                    do { asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(arr32 + 64) : "memory"); } while (v < all);
                }
            } else if (busy && warp != 0) {
                for (int m = 0; m < busy; m++) atomicOr(mine + 32u * ((m * 3u + lane) & 7u), 1u << ((m * 5 + r) & 31u));
            }
            __syncthreads();
        }
        if (reload) {
            if (tid < 192) *(uint4 *)((unsigned char *)(sm + 4096) + 16 * tid) = __ldcg((const uint4 *)(codes + 16 * tid));
            __syncthreads();
        }
    }
    if (tid == 0) { out[4 * b] = clock64() - c_start; out[4 * b + 1] = gtime() - t_start; }
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

int main() {
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t smem = 120 * 1024;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    u64 *ctl, *out; unsigned char *codes;
    CK(cudaMalloc(&ctl, 1 << 20)); CK(cudaMalloc(&codes, 1 << 20)); CK(cudaMalloc(&out, 4 * 8 * 1024));
    unsigned iters = 20016;
    const char *bars[] = {"cg grid.sync", "ours: red.release u64 + ld.acquire", "cg by hand: atom.release u32 flip", "red.release u32 + ld.acquire"};
    const char *st[] = {"no stores", "24 bytes interleaved", "24 bytes own line", "3 bytes interleaved", "24 words interleaved"};
    for (int reload = 0; reload < 2; reload++)
    for (int busy : {0, 32})
    for (int stores = 0; stores < 5; stores++)
    for (int bar = 0; bar < 4; bar++) {
        if (bar == 0 && busy) continue;
        CK(cudaMemset(ctl, 0, 1 << 20));
        int G = sms;
        void *args[] = {&ctl, &codes, &iters, &bar, &stores, &busy, &reload, &out};
        CK(cudaLaunchCooperativeKernel((void *)k, G, 1024, args, smem));
        CK(cudaDeviceSynchronize());
        u64 h[8];
        CK(cudaMemcpy(h, out, 64, cudaMemcpyDeviceToHost));
        printf("%-36s %-22s busy %2d reload %d: round %6.0f cycles %6.0f ns\n", bars[bar], st[stores], busy, reload,
               (double)h[0] / (iters - 16), (double)h[1] / (iters - 16));
    }
    return 0;
}
