// Where does the driver put a cooperative grid of one 1024-thread block an SM when 256-thread
// blocks of another kernel are running? `coop` records each block's SM; `filler` spins.
extern "C" __global__ void filler(unsigned long long cycles) {
    unsigned long long t0 = clock64();
    while (clock64() - t0 < cycles) { }
}
extern "C" __global__ void coop(unsigned *out) {
    extern __shared__ unsigned char smem[];
    unsigned id;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
    if (threadIdx.x == 0) { smem[0] = 1; out[blockIdx.x] = id; }
    unsigned long long t0 = clock64();
    while (clock64() - t0 < 2000000ull) { }
}
