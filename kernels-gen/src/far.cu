
// The marking engine's far options on the device, exact marking: the same text for every game,
// after the game's macros and tables above. Heap h = lo + y (y the grid's second index) marks
// every split a + (h - BREAK[k] - a) whose two parts lie below `start` (the heaps computed
// before the block), the grid row's threads taking a = 1, 2, ... in turn, each block into a
// bitset of its own in shared memory (`words` words, 32 values each: every such value is below
// 32 words), then or-ed into the row's words of `seen` (zeroed by the host).
extern "C" __global__ void far(const u16 *g, u64 start, u64 lo, unsigned words, unsigned *seen) {
    extern __shared__ unsigned set[];
    u64 h = lo + blockIdx.y;
    seen += (u64)blockIdx.y * words;
    for (unsigned w = threadIdx.x; w < words; w += blockDim.x) set[w] = 0u;
    __syncthreads();
    u64 step = (u64)gridDim.x * blockDim.x;
    for (unsigned k = 0; k < N_BREAK; k++) {
        u64 i = BREAK[k];
        if (h < i + 2u) continue;
        u64 s = h - i, top = s / 2u;
        // The larger part s - a below start: a > s - start.
        u64 least = s + 1u > start ? s + 1u - start : 1u;
        for (u64 a = least + (u64)blockIdx.x * blockDim.x + threadIdx.x; a <= top; a += step) {
            unsigned x = g[a] ^ g[s - a];
            atomicOr(set + (x >> 5), 1u << (x & 31u));
        }
    }
    __syncthreads();
    for (unsigned w = threadIdx.x; w < words; w += blockDim.x) {
        if (set[w]) atomicOr(seen + w, set[w]);
    }
}

// The first FREE values of row y (one thread each, rows of them) that its `words` words of
// `seen` leave clear, into out[FREE y ..]; the values past the words are all clear.
extern "C" __global__ void free_values(const unsigned *seen, unsigned words, unsigned rows, unsigned *out) {
    unsigned y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= rows) return;
    const unsigned *set = seen + (u64)y * words;
    unsigned *mine = out + (u64)y * FREE;
    unsigned k = 0;
    for (unsigned w = 0; w < words && k < FREE; w++) {
        for (unsigned clear = ~set[w]; clear && k < FREE; clear &= clear - 1u) {
            mine[k++] = 32u * w + (unsigned)(__ffs(clear) - 1);
        }
    }
    for (unsigned v = 32u * words; k < FREE; v++) mine[k++] = v;
}
