typedef unsigned long long u64;
// Grid barrier variants, `rounds` times; out[block] = cycles.
extern "C" __global__ void __launch_bounds__(1024) gridbar(u64 *ctl, u64 *out, unsigned rounds, unsigned variant) {
    u64 t0 = clock64();
    for (unsigned r = 0; r < rounds; r++) {
        __syncthreads();
        if (threadIdx.x == 0) {
            u64 all = (u64)(r + 1u) * gridDim.x, arrived;
            if (variant == 0) {
                asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl) : "memory");
                do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl) : "memory"); } while (arrived < all);
            } else if (variant == 1) {
                asm volatile("red.relaxed.gpu.global.add.u64 [%0], 1;" :: "l"(ctl) : "memory");
                do { asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl) : "memory"); } while (arrived < all);
            } else if (variant == 2) {
                asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl) : "memory");
                do { __nanosleep(20); asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl) : "memory"); } while (arrived < all);
            } else {
                // two atomicMin to slots, then the barrier, then read a slot (the committed round end)
                atomicMin(ctl + 8 + r % 3, (u64)blockIdx.x + r);
                atomicMin(ctl + 16 + r % 3, (u64)blockIdx.x + r);
                asm volatile("red.release.gpu.global.add.u64 [%0], 1;" :: "l"(ctl) : "memory");
                do { asm volatile("ld.acquire.gpu.global.u64 %0, [%1];" : "=l"(arrived) : "l"(ctl) : "memory"); } while (arrived < all);
                out[gridDim.x + blockIdx.x] += *(volatile u64 *)(ctl + 8 + r % 3);
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = clock64() - t0;
}
// Cluster barrier, `rounds` times.
extern "C" __global__ void __launch_bounds__(1024) clusterbar(u64 *out, unsigned rounds) {
    u64 t0 = clock64();
    for (unsigned r = 0; r < rounds; r++) {
        asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    if (threadIdx.x == 0) out[blockIdx.x] = clock64() - t0;
}
// Cluster barrier with thread 0 of each block storing a value into block 0's shared memory
// (DSMEM) before it and every thread reading it after it.
extern "C" __global__ void __launch_bounds__(1024) clusterdsm(u64 *out, unsigned rounds) {
    __shared__ unsigned slot[32];
    u64 t0 = clock64();
    unsigned rank; asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
    unsigned acc = 0;
    if (threadIdx.x < 32) slot[threadIdx.x] = 0;
    asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    for (unsigned r = 0; r < rounds; r++) {
        if (threadIdx.x == 0) {
            unsigned remote;
            asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"((unsigned)__cvta_generic_to_shared(slot + rank)));
            asm volatile("st.shared::cluster.u32 [%0], %1;" :: "r"(remote), "r"(r));
        }
        asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
        if (threadIdx.x < 32) {
            unsigned remote, v;
            asm volatile("mapa.shared::cluster.u32 %0, %1, 0;" : "=r"(remote) : "r"((unsigned)__cvta_generic_to_shared(slot + (threadIdx.x % 16))));
            asm volatile("ld.shared::cluster.u32 %1, [%0];" : "=r"(v) : "r"(remote) : "memory");
            acc += v;
        }
        asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    if (threadIdx.x == 0) out[blockIdx.x] = clock64() - t0 + (acc == 12345u);
}
