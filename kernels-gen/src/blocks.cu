
// The marking engine's batches on the device, the exact values of heaps start .. start + rows: the
// same text for every game, after the game's move lists above. The value of a heap is the mex of
// every option, read from the values the device holds; nothing is guessed.

// Sets bit x of a shared bitset of `span` words (values past it are never options; see `block`).
#define MARK(set, x) do { unsigned v_ = (x); if (v_ < 32u * span) atomicOr((set) + (v_ >> 5), 1u << (v_ & 31u)); } while (0)

// The far splits: heap h = start + blockIdx.y marks every split a + (h - BREAK[k] - a) whose two
// parts lie below `start` (heaps computed before the batch), the grid row's threads taking a = 1,
// 2, ... in turn, each block into a bitset of its own in shared memory (`words` words, 32 values
// each: every such value is below 32 words), then or-ed into the row's words of `seen` (zeroed by
// the host).
extern "C" __global__ void far(const u16 *g, u64 start, unsigned words, unsigned *seen) {
    extern __shared__ unsigned set[];
    u64 h = start + blockIdx.y;
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

// The values, heap after heap, in one CUDA block: heap h = start + y takes its far splits' set
// (row y of `seen`, `words` words) into a bitset of `span` words in shared memory, marks its near
// options there (whole moves, single heaps and the splits with a part at or past `start`), and
// its value is the least value none gives. With `span` twice `words`, every option of the batch
// is below 32 span (values before the batch are below 32 words, so their xors below 32 span, and
// so each value of the batch unless all of them are taken): where all are, `*over` is set and the
// block stops, the batch left to the host. The values of heaps 0 .. rows (every smaller part of a
// near split) and of the batch are read from shared memory; the batch's values go to g at the end.
#define VALUE(x) ((x) >= start ? mine[(x) - start] : (x) <= (u64)rows ? low[x] : g[x])
extern "C" __global__ void block(u16 *g, u64 start, unsigned rows, unsigned words, unsigned span, const unsigned *seen, unsigned *over) {
    extern __shared__ unsigned set[];
    u16 *low = (u16 *)(set + span), *mine = low + rows + 1u;
    __shared__ unsigned least;
    for (unsigned a = threadIdx.x; a <= rows; a += blockDim.x) low[a] = a < start ? g[a] : 0u;
    for (unsigned y = 0; y < rows; y++) {
        u64 h = start + y;
        const unsigned *row = seen + (u64)y * words;
        for (unsigned w = threadIdx.x; w < span; w += blockDim.x) set[w] = w < words ? row[w] : 0u;
        if (threadIdx.x == 0) least = ~0u;
        __syncthreads();
        if (threadIdx.x < N_WHOLE && h == (u64)WHOLE[threadIdx.x]) MARK(set, 0u);
        if (threadIdx.x < N_SINGLE && h > (u64)SINGLE[threadIdx.x]) MARK(set, VALUE(h - SINGLE[threadIdx.x]));
        for (unsigned k = 0; k < N_BREAK; k++) {
            u64 i = BREAK[k];
            if (h < i + 2u || h - i < start) continue;
            // The splits a + (s - a) with the larger part at or past start: a <= s - start < rows.
            u64 s = h - i, hi = s / 2u < s - start ? s / 2u : s - start;
            for (u64 a = 1u + threadIdx.x; a <= hi; a += blockDim.x) MARK(set, VALUE(a) ^ mine[s - a - start]);
        }
        __syncthreads();
        for (unsigned w = threadIdx.x; w < span; w += blockDim.x) {
            if (set[w] != ~0u) atomicMin(&least, 32u * w + (unsigned)(__ffs(~set[w]) - 1));
        }
        __syncthreads();
        unsigned v = least;
        if (v == ~0u) {
            if (threadIdx.x == 0) *over = 1u;
            return;
        }
        if (threadIdx.x == 0) mine[y] = (u16)v;
        __syncthreads();
    }
    for (unsigned y = threadIdx.x; y < rows; y += blockDim.x) g[start + y] = mine[y];
}
