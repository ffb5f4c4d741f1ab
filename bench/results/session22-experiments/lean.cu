// Session 22 microbenchmark: a lean chain alone on one SM (one warp, a window of 32 heaps, a heap
// a lane). Each heap gets 16 candidates, the first free codes of its options reaching DS or more
// back (made on the host from Officers' true codes: the feed a pipeline would give it). When a
// heap enters the window the warp strikes its candidates hit by the options in [32, DS) (their
// sources are proved by then); every round it compares only the options reaching less than 32
// back (14 of them: sources in the window or just before it) with its first 4 * NW candidates.
// Rounds are `spec`'s: the heaps before the first changed one, and that one, are proved.
// Output: cycles a heap, heaps a round, and every code compared with the truth.
#ifndef __CUDACC_RTC__
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cstring>
#include <vector>
#endif
#include "opts.h"
typedef unsigned long long u64;

#ifndef DS
#define DS 128
#endif
#ifndef NW
#define NW 2
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define N_IN BELOW_32
#define N_MID (CAT(BELOW_, DS) - BELOW_32)
#define RB 2048
#define CQ 512
#define AHEAD 256
#define WG 6
#define RM (RB - 1)

// 0x80 in each byte of c equal to s (exact).
__device__ __forceinline__ unsigned eqb(unsigned c, unsigned sb) {
    unsigned x = c ^ sb;
    unsigned t = (x & 0x7f7f7f7fu) + 0x7f7f7f7fu;
    return ~(t | x) & 0x80808080u;
}

struct Lane {
    unsigned c[4];   // candidates, a byte each, in order
    unsigned bk[2];  // candidates 0-7 struck at entry (0x80 flags)
};

// First alive candidate over words [0, nw), or 256.
__device__ __forceinline__ unsigned pick(const unsigned *c, const unsigned *k, int nw) {
    for (int w = 0; w < nw; w++) {
        unsigned a = ~k[w] & 0x80808080u;
        if (a) return (c[w] >> ((__ffs(a) - 8) & ~7)) & 0xffu;
    }
    return 256u;
}

// Kills of candidates 8-15 by the options [32, DS) (the rare slow path).
__device__ __noinline__ void mid_kills(const unsigned char *ring, u64 n, const Lane &L, unsigned *k) {
    k[0] = k[1] = 0u;
    #pragma unroll
    for (int j = BELOW_32; j < BELOW_32 + N_MID; j++) {
        unsigned s = (ring[(unsigned)(n - NEAR_D[j]) & RM] ^ (unsigned)NEAR_K[j]) * 0x01010101u;
        k[0] |= eqb(L.c[2], s);
        k[1] |= eqb(L.c[3], s);
    }
}

__global__ void chain(const uint4 *cands, const unsigned char *init, unsigned char *out, u64 start, u64 end,
                      u64 *stats, int reps) {
    __shared__ unsigned char ring[RB];
    __shared__ uint4 cq[CQ];
    unsigned lane = threadIdx.x;
    u64 t0 = 0;
    u64 rounds = 0, slow = 0, bad = 0;
    long long ph[4] = {0, 0, 0, 0};
    for (int rep = 0; rep < reps; rep++) {
        for (unsigned i = lane; i < RB; i += 32) ring[(start - RB + i) & RM] = init[i];
        __syncwarp();
        if (rep == reps - 1) { t0 = clock64(); rounds = slow = bad = 0; ph[0] = ph[1] = ph[2] = ph[3] = 0; }
        u64 p = start;
        u64 n = p + ((lane - p) & 31u);
        Lane L;
        unsigned g;
        // Candidates reach the queue cq (heap h at h % CQ) by cp.async, AHEAD heaps before the
        // window needs them; a round waits for the groups older than its WG last.
        u64 loaded = start;
        auto issue = [&](u64 upto) {
            for (u64 h = loaded + lane; h < upto; h += 32u) {
                unsigned dst = (unsigned)__cvta_generic_to_shared(&cq[h & (CQ - 1)]);
                asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" :: "r"(dst), "l"(cands + (h - start)) : "memory");
            }
            asm volatile("cp.async.commit_group;" ::: "memory");
            loaded = upto;
        };
        issue(start + 32 + AHEAD);
        asm volatile("cp.async.wait_group 0;" ::: "memory");
        __syncwarp();
        // Entering heap n: candidates, strikes by options [32, DS), first guess.
        auto enter = [&]() {
            uint4 q = cq[n & (CQ - 1)];
            L.c[0] = q.x; L.c[1] = q.y; L.c[2] = q.z; L.c[3] = q.w;
            L.bk[0] = L.bk[1] = 0u;
            #pragma unroll
            for (int j = BELOW_32; j < BELOW_32 + N_MID; j++) {
                unsigned s = (ring[(unsigned)(n - NEAR_D[j]) & RM] ^ (unsigned)NEAR_K[j]) * 0x01010101u;
                L.bk[0] |= eqb(L.c[0], s);
                L.bk[1] |= eqb(L.c[1], s);
            }
            g = pick(L.c, L.bk, 2);
            if (g == 256u) {
                unsigned k[2];
                mid_kills(ring, n, L, k);
                g = pick(L.c + 2, k, 2);
                if (g == 256u) g = 255u;
            }
            ring[(unsigned)n & RM] = (unsigned char)g;
        };
        enter();
        __syncwarp();
        while (p < end) {
            long long ta = clock64();
            unsigned s[N_IN];
            #pragma unroll
            for (int j = 0; j < N_IN; j++) s[j] = (ring[(unsigned)(n - NEAR_D[j]) & RM] ^ (unsigned)NEAR_K[j]) * 0x01010101u;
            __syncwarp();
            unsigned k[2] = {L.bk[0], L.bk[1]};
            #pragma unroll
            for (int j = 0; j < N_IN; j++) {
                #pragma unroll
                for (int w = 0; w < NW; w++) k[w] |= eqb(L.c[w], s[j]);
            }
            unsigned ng = pick(L.c, k, NW);
            if (ng == 256u) {
                // slow path: the remaining candidates
                slow++;
                if (NW < 2) {
                    #pragma unroll
                    for (int j = 0; j < N_IN; j++) k[1] |= eqb(L.c[1], s[j]);
                    ng = pick(L.c + 1, k + 1, 1);
                }
                if (ng == 256u) {
                    unsigned k2[2];
                    mid_kills(ring, n, L, k2);
                    #pragma unroll
                    for (int j = 0; j < N_IN; j++) {
                        k2[0] |= eqb(L.c[2], s[j]);
                        k2[1] |= eqb(L.c[3], s[j]);
                    }
                    ng = pick(L.c + 2, k2, 2);
                    if (ng == 256u) { bad++; ng = 255u; }
                }
            }
            long long tb = clock64();
            unsigned changed = __ballot_sync(0xffffffffu, ng != g);
            g = ng;
            ring[(unsigned)n & RM] = (unsigned char)g;
            unsigned rot = __funnelshift_r(changed, changed, (unsigned)p & 31u);
            unsigned adv = rot ? (unsigned)__ffs(rot) : 32u;
            rounds++;
            // heaps [p, p + adv) are proved
            unsigned off = (unsigned)(n - p);
            if (off < adv) {
                if (n < end) out[n - start] = (unsigned char)g;
                n += 32u;
            }
            p += adv;
            long long tc = clock64();
            issue(p + 32 + AHEAD);
            asm volatile("cp.async.wait_group %0;" :: "n"(WG) : "memory");
            __syncwarp();
            long long td = clock64();
            if (off < adv) enter();
            __syncwarp();
            long long te = clock64();
            ph[0] += tb - ta; ph[1] += tc - tb; ph[2] += td - tc; ph[3] += te - td;
        }
    }
    if (lane == 0) {
        stats[0] = clock64() - t0;
        stats[1] = rounds;
        stats[2] = slow;
        stats[3] = bad;
        for (int i = 0; i < 4; i++) stats[4 + i] = ph[i];
    }
}

#ifndef __CUDACC_RTC__
static unsigned code_of(unsigned v) { return ((v >> 2) << 1) | (v & 1u); }

int main(int argc, char **argv) {
    u64 N = 1ull << 22, start = 1ull << 16;
    int reps = argc > 1 ? atoi(argv[1]) : 2;
    std::vector<uint16_t> vals(N);
    FILE *f = fopen("off22.bin", "rb");
    if (!f || fread(vals.data(), 2, N, f) != N) { fprintf(stderr, "off22.bin\n"); return 1; }
    fclose(f);
    std::vector<unsigned char> code(N);
    for (u64 i = 0; i < N; i++) code[i] = (unsigned char)code_of(vals[i]);
    // all options
    std::vector<int> od{1}, ok{0};
    for (int r = 1; r < 20628; r++)
        if (__builtin_popcount(vals[r] & 0x1eeu) % 2 == 0) { od.push_back(r + 1); ok.push_back(code_of(vals[r])); }
    u64 end = N - 1024;
    std::vector<uint4> cands(N - start);
    u64 wrong = 0, rank_hist[17] = {0};
    for (u64 n = start; n < N; n++) {
        unsigned seen[8] = {0}, all[8] = {0};
        for (size_t j = 0; j < od.size(); j++) {
            unsigned x = code[n - od[j]] ^ ok[j];
            all[x >> 5] |= 1u << (x & 31);
            if (od[j] >= DS) seen[x >> 5] |= 1u << (x & 31);
        }
        unsigned mex = 0;
        while (all[mex >> 5] >> (mex & 31) & 1u) mex++;
        if (mex != code[n] && n < end) wrong++;
        unsigned char cb[16];
        int m = 0;
        for (unsigned x = 0; x < 256 && m < 16; x++)
            if (!(seen[x >> 5] >> (x & 31) & 1u)) { if (x == code[n] && n < end) rank_hist[m]++; cb[m++] = (unsigned char)x; }
        memcpy(&cands[n - start], cb, 16);
    }
    printf("DS=%d NW=%d N_IN=%d N_MID=%d: truth check %llu wrong of %llu; rank of the value among the candidates:",
           DS, NW, N_IN, N_MID, wrong, end - start);
    for (int i = 0; i < 8; i++) printf(" %llu", rank_hist[i]);
    printf("\n");
    uint4 *dc; unsigned char *di, *dout; u64 *ds;
    cudaMalloc(&dc, cands.size() * sizeof(uint4));
    cudaMemcpy(dc, cands.data(), cands.size() * sizeof(uint4), cudaMemcpyHostToDevice);
    cudaMalloc(&di, RB);
    cudaMemcpy(di, code.data() + start - RB, RB, cudaMemcpyHostToDevice);
    cudaMalloc(&dout, end - start);
    cudaMemset(dout, 0xff, end - start);
    cudaMalloc(&ds, 8 * sizeof(u64));
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0); cudaEventCreate(&e1);
    cudaEventRecord(e0);
    chain<<<1, 32>>>(dc, di, dout, start, end, ds, reps);
    cudaEventRecord(e1);
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess) { printf("cuda error %s\n", cudaGetErrorString(err)); return 1; }
    float ms; cudaEventElapsedTime(&ms, e0, e1);
    u64 st[8];
    cudaMemcpy(st, ds, sizeof st, cudaMemcpyDeviceToHost);
    std::vector<unsigned char> out(end - start);
    cudaMemcpy(out.data(), dout, end - start, cudaMemcpyDeviceToHost);
    u64 diff = 0, first = 0;
    for (u64 i = 0; i < end - start; i++) if (out[i] != code[start + i]) { if (!diff) first = start + i; diff++; }
    double heaps = (double)(end - start);
    printf("  cycles %llu = %.2f a heap (%.1f M heaps/s at 1980 MHz); rounds %llu, %.2f heaps a round, %.0f cycles a round; "
           "slow %llu bad %llu; codes differing %llu (first %llu); wall of %d reps %.2f ms\n",
           st[0], st[0] / heaps, heaps / st[0] * 1980.0, st[1], heaps / st[1], (double)st[0] / st[1], st[2], st[3], diff,
           first, reps, ms);
    printf("  a round: loads and options %.0f, ballot to advance %.0f, queue %.0f, entering %.0f cycles\n",
           (double)st[4] / st[1], (double)st[5] / st[1], (double)st[6] / st[1], (double)st[7] / st[1]);
    return diff ? 2 : 0;
}
#endif
