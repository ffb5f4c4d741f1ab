// Grid-barrier microbenchmark (session 18): what a round's barrier costs on an idle H200/H100,
// one block of 1024 threads per SM (dynamic shared memory > half an SM), by variant.
#include <cstdio>
#include <cstdlib>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
typedef unsigned long long u64;

#define CTL_ARR 8
#define CTL_TOP 16
#define CTL_GRP 32   // group counters, 16 words apart

__device__ __forceinline__ u64 gtime() { u64 t; asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)); return t; }

struct P { int variant, busy, mark, reload, mins, group; };

__global__ void __launch_bounds__(1024) k(u64 *ctl, unsigned char *codes, unsigned iters, P p, u64 *out) {
    extern __shared__ __align__(16) unsigned sm[];
    unsigned tid = threadIdx.x, lane = tid & 31u, warp = tid >> 5;
    unsigned b = blockIdx.x, G = gridDim.x;
    u64 tb = 0, t_start = 0, c_start = 0;
    for (unsigned i = tid; i < 8192; i += 1024) sm[i] = 0;
    __syncthreads();
    unsigned *mine = sm + warp * 256 + lane;
    for (unsigned r = 0; r < iters; r++) {
        if (r == 16 && tid == 0) { t_start = gtime(); c_start = clock64(); tb = 0; }
        // marking phase: shared atomics, then a few codes written to global
        for (int m = 0; m < p.mark; m++) atomicOr(mine + 32u * ((m * 7u + lane) & 7u), 1u << ((m + r) & 31u));
        if (lane == 0 && warp < 24) codes[(b + G * warp) & 4095u] = (unsigned char)r;
        __syncthreads();
        if (tid == 0) {
            u64 c0 = clock64();
            if (p.mins) { atomicMin(ctl + 2 + r % 3u, (u64)(b + r)); }
            u64 all = (u64)(r + 1u) * G, v;
            if (p.variant == 0) {
                asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + CTL_ARR) : "memory");
                do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + CTL_ARR) : "memory"); } while (v < all);
            } else if (p.variant == 1) {
                asm volatile("fence.acq_rel.gpu;" ::: "memory");
                asm volatile("red.relaxed.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + CTL_ARR) : "memory");
                do { asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + CTL_ARR) : "memory"); } while (v < all);
                asm volatile("fence.acq_rel.gpu;" ::: "memory");
            } else if (p.variant == 2) {
                // two levels: groups of p.group blocks, the last arriver of a group moves the top
                unsigned g = b / p.group, ng = (G + p.group - 1) / p.group;
                unsigned gs = min((unsigned)p.group, G - g * p.group);
                u64 old;
                asm volatile("atom.acq_rel.gpu.global.add.u64 %0, [%1], 1;" : "=l"(old) : "l"(ctl + CTL_GRP + 16 * g) : "memory");
                if (old == (u64)(r + 1u) * gs - 1u) asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + CTL_TOP) : "memory");
                u64 allg = (u64)(r + 1u) * ng;
                do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + CTL_TOP) : "memory"); } while (v < allg);
            } else if (p.variant == 3) {
                // poll with a 64-bit atom that returns the count (no separate loads)
                asm volatile("atom.release.gpu.global.add.u64 %0, [%1], 1;" : "=l"(v) : "l"(ctl + CTL_ARR) : "memory");
                while (v + 1 < all) { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + CTL_ARR) : "memory"); v -= 1; }
            } else if (p.variant == 4) {
                // each block a flag word; warp 0's lanes would poll all: here thread 0 polls them in a loop
                asm volatile("st.release.gpu.global.u64 [%0], %1;" :: "l"(ctl + 64 + 16 * b), "l"((u64)r + 1) : "memory");
                for (unsigned o = 0; o < G; o++) {
                    do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + 64 + 16 * o) : "memory"); } while (v < r + 1);
                }
            }
            tb += clock64() - c0;
        } else if (warp != 0) {
            for (int m = 0; m < p.busy; m++) atomicOr(mine + 32u * ((m * 3u + lane) & 7u), 1u << ((m * 5 + r) & 31u));
        }
        __syncthreads();
        if (p.reload && tid < 192) {
            *(uint4 *)((unsigned char *)(sm + 4096) + 16 * tid) = __ldcg((const uint4 *)(codes + 16 * tid));
        }
        if (p.mins && tid == 0) { volatile u64 *c = ctl + 2 + r % 3u; sm[8000] = (unsigned)*c; }
        __syncthreads();
    }
    if (tid == 0) {
        out[4 * b] = clock64() - c_start;
        out[4 * b + 1] = gtime() - t_start;
        out[4 * b + 2] = tb;
    }
}

// the same rounds with cooperative groups' grid.sync()
__global__ void __launch_bounds__(1024) kcg(unsigned char *codes, unsigned iters, u64 *out) {
    extern __shared__ __align__(16) unsigned sm[];
    cg::grid_group grid = cg::this_grid();
    unsigned tid = threadIdx.x, b = blockIdx.x;
    u64 t_start = 0, c_start = 0;
    for (unsigned r = 0; r < iters; r++) {
        if (r == 16 && tid == 0) { t_start = gtime(); c_start = clock64(); }
        grid.sync();
    }
    if (tid == 0) { out[4 * b] = clock64() - c_start; out[4 * b + 1] = gtime() - t_start; out[4 * b + 2] = 0; }
}

// cluster variant: cluster barrier, the cluster's rank-0 block meets the other clusters, cluster barrier
__global__ void __launch_bounds__(1024) kcl(u64 *ctl, unsigned char *codes, unsigned iters, int global, u64 *out) {
    extern __shared__ __align__(16) unsigned sm[];
    cg::cluster_group cl = cg::this_cluster();
    unsigned tid = threadIdx.x, b = blockIdx.x, G = gridDim.x;
    unsigned ncl = G / cl.num_blocks();
    u64 t_start = 0, c_start = 0;
    for (unsigned r = 0; r < iters; r++) {
        if (r == 16 && tid == 0) { t_start = gtime(); c_start = clock64(); }
        cl.sync();
        if (global && cl.block_rank() == 0 && tid == 0) {
            u64 v, all = (u64)(r + 1u) * ncl;
            asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl + CTL_ARR) : "memory");
            do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(v) : "l"(ctl + CTL_ARR) : "memory"); } while (v < all);
        }
        if (global) cl.sync();
    }
    if (tid == 0) { out[4 * b] = clock64() - c_start; out[4 * b + 1] = gtime() - t_start; out[4 * b + 2] = 0; }
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

int main(int argc, char **argv) {
    int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    size_t smem = 120 * 1024;
    CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(kcg, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(kcl, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
    CK(cudaFuncSetAttribute(kcl, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
    u64 *ctl, *out; unsigned char *codes;
    CK(cudaMalloc(&ctl, 1 << 20)); CK(cudaMalloc(&codes, 1 << 16)); CK(cudaMalloc(&out, 4 * 8 * 1024));
    unsigned iters = 20016;
    u64 h[4 * 1024];
    auto report = [&](const char *name, int G) {
        CK(cudaMemcpy(h, out, 4 * 8 * G, cudaMemcpyDeviceToHost));
        double cyc = (double)h[0] / (iters - 16), ns = (double)h[1] / (iters - 16), bar = (double)h[2] / (iters - 16);
        printf("%-44s G=%3d  round %7.0f cycles %7.0f ns  thread0 barrier %6.0f cycles\n", name, G, cyc, ns, bar);
    };
    struct Case { const char *name; P p; };
    Case cases[] = {
        {"v0 release+acquire, bare", {0, 0, 0, 0, 0, 0}},
        {"v0 +mins", {0, 0, 0, 0, 1, 0}},
        {"v0 +mins+reload", {0, 0, 0, 1, 1, 0}},
        {"v0 +mins+reload+mark64", {0, 0, 64, 1, 1, 0}},
        {"v0 +mins+reload+mark64+busy32", {0, 32, 64, 1, 1, 0}},
        {"v1 fence,relaxed red/poll,fence bare", {1, 0, 0, 0, 0, 0}},
        {"v1 +mins+reload+mark64+busy32", {1, 32, 64, 1, 1, 0}},
        {"v2 groups of 12, bare", {2, 0, 0, 0, 0, 12}},
        {"v2 groups of 12 +mins+reload+mark64+busy32", {2, 32, 64, 1, 1, 12}},
        {"v3 atom returns count, bare", {3, 0, 0, 0, 0, 0}},
        {"v4 flags, bare", {4, 0, 0, 0, 0, 0}},
    };
    int grids[] = {sms, sms / 2, 16, 2};
    for (auto &c : cases) {
        for (int G : grids) {
            if (c.p.variant == 4 && G != sms) continue;
            CK(cudaMemset(ctl, 0, 1 << 20));
            k<<<G, 1024, smem>>>(ctl, codes, iters, c.p, out);
            CK(cudaDeviceSynchronize());
            report(c.name, G);
        }
    }
    {
        void *args[] = {&codes, &iters, &out};
        CK(cudaLaunchCooperativeKernel((void *)kcg, sms, 1024, args, smem));
        CK(cudaDeviceSynchronize());
        report("cooperative groups grid.sync", sms);
    }
    for (int cs : {2, 4, 8, 16}) {
        for (int global : {0, 1}) {
            cudaLaunchConfig_t cfg = {};
            cudaLaunchAttribute at[1];
            at[0].id = cudaLaunchAttributeClusterDimension;
            at[0].val.clusterDim.x = cs; at[0].val.clusterDim.y = 1; at[0].val.clusterDim.z = 1;
            cfg.blockDim = dim3(1024); cfg.dynamicSmemBytes = smem; cfg.attrs = at; cfg.numAttrs = 1;
            int ncl = 0;
            cfg.gridDim = dim3(cs * 64);
            if (cudaOccupancyMaxActiveClusters(&ncl, (void *)kcl, &cfg) != cudaSuccess) { printf("cluster %d: occupancy query failed\n", cs); cudaGetLastError(); continue; }
            if (ncl == 0) { printf("cluster %d: none fit\n", cs); continue; }
            cfg.gridDim = dim3(cs * ncl);
            CK(cudaMemset(ctl, 0, 1 << 20));
            cudaError_t e = cudaLaunchKernelEx(&cfg, kcl, ctl, codes, iters, global, out);
            if (e != cudaSuccess) { printf("cluster %d: %s\n", cs, cudaGetErrorString(e)); cudaGetLastError(); continue; }
            CK(cudaDeviceSynchronize());
            char name[64]; snprintf(name, 64, "cluster %d (%d clusters) %s", cs, ncl, global ? "+global" : "alone");
            report(name, cs * ncl);
        }
    }
    return 0;
}
