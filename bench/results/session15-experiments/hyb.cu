// Prototype: hybrid speculation. CPU chain (near options) + CPU T1 threads (middle) + GPU far kernel.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <chrono>
#include <thread>
#include <vector>
#include <atomic>
#include <immintrin.h>
#include <algorithm>
#ifndef CPUONLY
#include <cuda_runtime.h>
#endif
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__); exit(1);}}while(0)
typedef unsigned long long u64;
#define K 8
#define B 64
#define CRING 8192          // batches in the candidate ring
#define DRING (1u<<20)      // device code ring
#define MAXOPT 2048
#ifndef CPUONLY
__constant__ unsigned c_dist[MAXOPT];
__constant__ unsigned char c_key[MAXOPT];
#endif
struct Cands { unsigned char c[K][B]; };

#ifndef CPUONLY
// Persistent far kernel: block 0 (one warp) polls host progress and copies codes to the device
// ring; blocks 1..W each take items (HPI heaps of a batch) i = w-1 (mod W): the first K free
// codes of the options with d > D2, from a shared ring of codes and the option table in shared
// memory, one heap a warp.
#define SRING (1u << 15)
#define MAXF 2048
__global__ void far(const volatile u64 *hprog, const unsigned char *hcodes, unsigned char *dcodes,
    u64 *dprog, Cands *hcand, volatile unsigned *htag, u64 base, u64 nbatches, int nopt, unsigned d2, unsigned hpi) {
  if (blockIdx.x == 0) {
    if (threadIdx.x >= 32) return;
    u64 have = base;
    while (have < base + nbatches * B) {
      u64 p = 0;
      if (threadIdx.x == 0) { do { p = *hprog; } while (p <= have); }
      p = __shfl_sync(0xffffffffu, p, 0);
      __threadfence();
      for (u64 h = have + 16 * threadIdx.x; h < p; h += 16 * 32)
        *(uint4 *)(dcodes + (h & (DRING - 1))) = __ldcv((const uint4 *)(hcodes + h));
      __threadfence();
      __syncwarp();
      if (threadIdx.x == 0) atomicExch(dprog, p);
      have = p;
    }
    return;
  }
  extern __shared__ __align__(16) unsigned char sm[];
  unsigned *bits = (unsigned *)sm;                        // warps x 32 lanes x 8 words
  unsigned *opt = bits + (blockDim.x / 32) * 32 * 8;      // d << 8 | key
  unsigned char *ring = (unsigned char *)(opt + MAXF);    // SRING codes
  __shared__ __align__(16) unsigned char out[K * 32];
  unsigned warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
  for (int j = threadIdx.x; j < nopt; j += blockDim.x) opt[j] = (c_dist[j] << 8) | c_key[j];
  unsigned *mine = bits + warp * 32 * 8 + lane;
  for (int w = 0; w < 8; w++) mine[32 * w] = 0;
  unsigned W = gridDim.x - 1, per = B / hpi;
  u64 loaded = base;   // codes [.., loaded) are in the ring
  // the ring first holds the codes before base
  for (u64 h = base - min(base, (u64)SRING) + threadIdx.x; h < base; h += blockDim.x) ring[h & (SRING - 1)] = __ldcg(dcodes + (h & (DRING - 1)));
  __syncthreads();
  for (u64 it = blockIdx.x - 1; it < nbatches * per; it += W) {
    u64 b = it / per; unsigned q0 = (it % per) * hpi;
    u64 n0 = base + b * B + q0;
    u64 need = n0 + hpi - d2;   // sources up to n0 + hpi - 1 - (d2 + 1)
    __shared__ u64 s_p;
    if (threadIdx.x == 0) { u64 p; do { p = *(volatile u64 *)dprog; } while (p < need); s_p = p; }
    __syncthreads();
    u64 upto = s_p;
    for (u64 h = loaded + threadIdx.x; h < upto; h += blockDim.x) ring[h & (SRING - 1)] = __ldcg(dcodes + (h & (DRING - 1)));
    loaded = upto;
    __syncthreads();
    for (unsigned q = warp; q < hpi; q += blockDim.x / 32) {
      u64 n = n0 + q;
      unsigned nn = (unsigned)n;
      for (int j0 = lane; j0 < nopt; j0 += 128) {
        unsigned x[4];
#pragma unroll
        for (int u = 0; u < 4; u++) { int j = min(j0 + 32 * u, nopt - 1); unsigned o = opt[j]; x[u] = ring[(nn - (o >> 8)) & (SRING - 1)] ^ (o & 0xff); }
#pragma unroll
        for (int u = 0; u < 4; u++) atomicOr(mine + 32 * (x[u] >> 5), 1u << (x[u] & 31));
      }
      __syncwarp();
      unsigned wd[8];
      for (int w = 0; w < 8; w++) { wd[w] = __reduce_or_sync(0xffffffffu, mine[32 * w]); mine[32 * w] = 0; }
      unsigned myb = 0;
#pragma unroll
      for (int w = 0; w < 8; w++) if ((lane >> 2) == w) myb = (wd[w] >> (8 * (lane & 3))) & 0xff;
      unsigned freeb = (~myb) & 0xff, cnt = __popc(freeb), pre = cnt;
      for (int o = 1; o < 32; o <<= 1) { unsigned t = __shfl_up_sync(0xffffffffu, pre, o); if (lane >= o) pre += t; }
      unsigned r = pre - cnt;
      while (freeb && r < K) { unsigned bit = __ffs(freeb) - 1; out[r * 32 + q] = (unsigned char)(8 * lane + bit); r++; freeb &= freeb - 1; }
      unsigned total = __shfl_sync(0xffffffffu, pre, 31);
      if (lane < K && lane >= total) out[lane * 32 + q] = 0xff;
      __syncwarp();
    }
    __syncthreads();
    // K rows of hpi bytes to the host
    if (threadIdx.x < K * hpi / 8) {
      unsigned row = threadIdx.x / (hpi / 8), c8 = threadIdx.x % (hpi / 8);
      *(u64 *)(hcand[b % CRING].c[row] + q0 + 8 * c8) = *(u64 *)(out + row * 32 + 8 * c8);
    }
    __threadfence_system();
    __syncthreads();
    if (threadIdx.x == 0) { htag[(b % CRING) * 8 + it % per] = (unsigned)(b + 1); }
  }
}

#endif
static uint16_t *g;   // true values (file)
static int rare[4000], nr;
static inline int cc(int v) { return ((v >> 2) << 1) | (v & 1); }
static double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
// Candidate i of heap n0 + q is hit by an option of the list: bit q of hit[i].
static inline void batch_hits(const unsigned char *o, u64 n0, const Cands *cd, const int *ds, const unsigned char *ks, int cnt, u64 *hit) {
  __m512i cv[K]; for (int i = 0; i < K; i++) cv[i] = _mm512_loadu_si512(cd->c[i]);
  __mmask64 h[K] = {0};
  for (int j = 0; j < cnt; j++) {
    __m512i x = _mm512_xor_si512(_mm512_loadu_si512(o + n0 - ds[j]), _mm512_set1_epi8((char)ks[j]));
    for (int i = 0; i < K; i++) h[i] |= _mm512_cmpeq_epi8_mask(x, cv[i]);
  }
  for (int i = 0; i < K; i++) hit[i] |= h[i];
}
static inline void spin() { _mm_pause(); }
struct alignas(64) Slot { u64 hit[K]; std::atomic<u64> tag; char pad[64 - 8]; };

int main(int argc, char **argv) {
  u64 N = (u64)strtod(argv[1], 0); int DTc = atoi(argv[2]); unsigned D2 = atoi(argv[3]); int T = atoi(argv[4]); int W = atoi(argv[5]); unsigned HPI = atoi(argv[6]);
  FILE *f = fopen("off22.bin", "rb"); const int NF = 1 << 22; g = (uint16_t *)malloc(2 * NF); if (fread(g, 2, NF, f) != (size_t)NF) return 1; fclose(f);
  int m = 0x1ee;
  for (int a = 0; a < 30000 && nr < 1584; a++) if (__builtin_popcount(g[a] & m) % 2 == 0) rare[nr++] = a;
  u64 start = 65536 + (N - 65536) % B;
  u64 nb = (N - start) / B;
  unsigned char *codes = (unsigned char *)aligned_alloc(64, (N + 4096 + 63) / 64 * 64);
  for (u64 n = 0; n < start; n++) codes[n] = cc(g[n]);
  std::vector<int> sd, nd, bd, td; std::vector<unsigned char> sk, nk, bk, tk; std::vector<unsigned> fd; std::vector<unsigned char> fk;
  std::vector<int> alld; std::vector<unsigned char> allk;
  for (int j = 0; j < nr; j++) { int d = rare[j] + 1; unsigned char k = cc(g[rare[j]]); alld.push_back(d); allk.push_back(k);
    if (d <= 8) { sd.push_back(d); sk.push_back(k); } else if (d <= 72) { nd.push_back(d); nk.push_back(k); }
    else if (d <= DTc) { bd.push_back(d); bk.push_back(k); } else if (d <= (int)D2) { td.push_back(d); tk.push_back(k); }
    else { fd.push_back(d); fk.push_back(k); } }
  // T1 threads: contiguous distance ranges, equal option counts, nearest first
  int TT = T > 0 ? T : 1;
  std::vector<std::vector<int>> tdd(TT); std::vector<std::vector<unsigned char>> tkk(TT); std::vector<int> tlo(TT);
  for (size_t j = 0; j < td.size(); j++) { int t = (int)(j * TT / td.size()); tdd[t].push_back(td[j]); tkk[t].push_back(tk[j]); }
  for (int t = 0; t < TT; t++) tlo[t] = tdd[t].empty() ? (int)D2 : tdd[t][0] - 1;
  printf("N=%llu DTc=%d D2=%u T=%d W=%d HPI=%u: swar %zu near %zu batch %zu t1 %zu gpu %zu; T1 ranges:", N, DTc, D2, T, W, HPI, sd.size(), nd.size(), bd.size(), td.size(), fd.size());
  for (int t = 0; t < TT; t++) printf(" (%d..%d: %zu)", tlo[t], tdd[t].empty() ? 0 : tdd[t].back(), tdd[t].size());
  printf("\n");
#ifdef CPUONLY
  unsigned char *hcodes = codes; u64 *hp = (u64 *)aligned_alloc(64, 4096);
  Cands *hcand = (Cands *)aligned_alloc(64, sizeof(Cands) * CRING);
  unsigned *htag = (unsigned *)aligned_alloc(64, 32 * CRING); memset(htag, 0, 32 * CRING);
  std::vector<Cands> allc(nb);
  for (u64 bb = 0; bb < nb; bb++) for (int q = 0; q < B; q++) { u64 n = start + bb * B + q; u64 bs[4] = {0};
      for (size_t j = 0; j < fd.size(); j++) { int x = cc(g[n - fd[j]]) ^ fk[j]; bs[x >> 6] |= 1ull << (x & 63); }
      int k = 0; for (int x = 0; x < 256 && k < K; x++) if (!(bs[x >> 6] >> (x & 63) & 1)) allc[bb].c[k++][q] = x;
      while (k < K) allc[bb].c[k++][q] = 0xff; }
#else
  unsigned char *hcodes; CK(cudaHostAlloc(&hcodes, N + 4096, cudaHostAllocMapped));
  memcpy(hcodes, codes, start);
  u64 *hp; CK(cudaHostAlloc(&hp, 4096, cudaHostAllocMapped)); memset(hp, 0, 4096);
  Cands *hcand; CK(cudaHostAlloc(&hcand, sizeof(Cands) * CRING, cudaHostAllocMapped));
  unsigned *htag; CK(cudaHostAlloc(&htag, 32 * CRING, cudaHostAllocMapped)); memset(htag, 0, 32 * CRING);
  CK(cudaMemcpyToSymbol(c_dist, fd.data(), 4 * fd.size())); CK(cudaMemcpyToSymbol(c_key, fk.data(), fk.size()));
#endif
  volatile u64 *hprog = hp; *hprog = start;
  Slot *slots = new Slot[(size_t)CRING * TT]; for (size_t i = 0; i < (size_t)CRING * TT; i++) slots[i].tag.store(0);
  std::atomic<u64> cprog(start);
  u64 *pubt = (u64 *)calloc(nb + 1, 8), *tagt = (u64 *)calloc(nb + 1, 8);
#ifdef CPUONLY
  std::thread fake([&]() { // candidates of b appear once progress allows the GPU to start b (zero latency)
    for (u64 b = 0; b < nb; b++) { u64 n0 = start + b * B;
      while (cprog.load(std::memory_order_acquire) + D2 < n0 + 64) spin();
      hcand[b % CRING] = allc[b];
      for (int it = 0; it < 8; it++) ((std::atomic<unsigned> *)htag)[(b % CRING) * 8 + it].store((unsigned)(b + 1), std::memory_order_release); } });
#else
  unsigned char *dcodes; CK(cudaMalloc(&dcodes, DRING));
  { std::vector<unsigned char> tmp(DRING); for (u64 n = 0; n < start; n++) tmp[n & (DRING - 1)] = hcodes[n]; CK(cudaMemcpy(dcodes, tmp.data(), DRING, cudaMemcpyHostToDevice)); }
  u64 *dprog; CK(cudaMalloc(&dprog, 8)); CK(cudaMemcpy(dprog, &start, 8, cudaMemcpyHostToDevice));
  u64 *dhp; unsigned *dtag; Cands *dcand; unsigned char *dhc;
  CK(cudaHostGetDevicePointer(&dhp, hp, 0)); CK(cudaHostGetDevicePointer(&dtag, htag, 0)); CK(cudaHostGetDevicePointer(&dcand, hcand, 0)); CK(cudaHostGetDevicePointer(&dhc, hcodes, 0));
  cudaStream_t st; CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  size_t smem = HPI * 32 * 8 * 4 + MAXF * 4 + SRING;
  CK(cudaFuncSetAttribute(far, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  far<<<W + 1, 32 * HPI, smem, st>>>(dhp, dhc, dcodes, dprog, dcand, dtag, start, nb, (int)fd.size(), D2, HPI);
  CK(cudaGetLastError());
#endif
  // monitor: when each batch's candidates are all there
  std::thread mon([&]() {
    for (u64 b = 0; b < nb; b++) { for (unsigned it = 0; it < B / HPI; it++) while (((volatile unsigned *)htag)[(b % CRING) * 8 + it] != (unsigned)(b + 1)) spin(); tagt[b] = __rdtsc(); } });
  std::vector<std::thread> th;
  for (int t = 0; t < T; t++) th.emplace_back([&, t]() {
    u64 cg = 0, cc_ = 0, cw_ = 0; const int *ds = tdd[t].data(); const unsigned char *ks = tkk[t].data(); int cnt = (int)tdd[t].size(); int lo = tlo[t];
    for (u64 b = 0; b < nb; b++) {
      u64 n0 = start + b * B;
      u64 a0 = __rdtsc();
      for (unsigned it = 0; it < B / HPI; it++) while (((volatile unsigned *)htag)[(b % CRING) * 8 + it] != (unsigned)(b + 1)) spin();
      u64 a1 = __rdtsc();
      while (cprog.load(std::memory_order_acquire) + lo < n0 + 63) spin();
      u64 a2 = __rdtsc();
      Slot &o = slots[(b % CRING) * TT + t];
      u64 h[K] = {0};
      batch_hits(codes, n0, &hcand[b % CRING], ds, ks, cnt, h);
      for (int i = 0; i < K; i++) o.hit[i] = h[i];
      o.tag.store(b + 1, std::memory_order_release);
      u64 a3 = __rdtsc();
      cg += a1 - a0; cw_ += a2 - a1; cc_ += a3 - a2;
    }
    printf("T1 %d: Mcycles wait gpu %.1f, wait chain %.1f, compute %.1f\n", t, cg / 1e6, cw_ / 1e6, cc_ / 1e6);
  });
  unsigned char ib[64] = {0}, kb[64] = {0}; for (size_t j = 0; j < nd.size(); j++) { ib[j] = 72 - nd[j]; kb[j] = nk[j]; }
  __m512i nidx = _mm512_loadu_si512(ib), nkey = _mm512_loadu_si512(kb); __mmask64 nmask = (1ull << nd.size()) - 1;
  u64 skey = 0, ssel = 0; for (size_t j = 0; j < sd.size(); j++) { skey |= (u64)sk[j] << (8 * (sd[j] - 1)); ssel |= 0x80ull << (8 * (sd[j] - 1)); }
  unsigned char *out = codes;
  u64 h = 0; for (int i = 0; i < 8; i++) h |= (u64)out[start - 1 - i] << (8 * i);
  long retries = 0, over = 0; u64 cyc_wait = 0, cyc_batch = 0;
  double t0 = now(); u64 c0 = __rdtsc();
  for (u64 b = 0; b < nb; b++) {
    u64 n0 = start + b * B;
    u64 a0 = __rdtsc();
    u64 hit[K] = {0};
    if (T) {
      for (int t = 0; t < T; t++) { Slot &o = slots[(b % CRING) * TT + t]; while (o.tag.load(std::memory_order_acquire) != b + 1) spin(); for (int i = 0; i < K; i++) hit[i] |= o.hit[i]; }
    } else {
      for (unsigned it = 0; it < B / HPI; it++) while (((volatile unsigned *)htag)[(b % CRING) * 8 + it] != (unsigned)(b + 1)) spin();
    }
    u64 a1 = __rdtsc();
    Cands cdl; memcpy(&cdl, &hcand[b % CRING], sizeof cdl); const Cands *cd = &cdl;
    _mm_prefetch((const char *)&hcand[(b + 2) % CRING], _MM_HINT_T0);
    if (!T) batch_hits(out, n0, cd, td.data(), tk.data(), (int)td.size(), hit);
    batch_hits(out, n0, cd, bd.data(), bk.data(), (int)bd.size(), hit);
    __m512i sv = _mm512_set1_epi8(-1);
    for (int i = 0; i < K; i++) sv = _mm512_andnot_si512(_mm512_maskz_set1_epi8(hit[i], (char)(1 << i)), sv);
    unsigned char surv[B]; _mm512_storeu_si512(surv, sv);
    u64 a2 = __rdtsc(); cyc_wait += a1 - a0; cyc_batch += a2 - a1;
    for (int q = 0; q < B; q++) {
      u64 n = n0 + q;
      __m512i X = _mm512_xor_si512(_mm512_permutexvar_epi8(nidx, _mm512_loadu_si512(out + n - 72)), nkey);
      unsigned s = surv[q]; int r = -1;
      while (s) { int i = __builtin_ctz(s); u64 c = cd->c[i][q]; if (c == 0xff) break;
        u64 t = (h ^ skey) ^ (c * 0x0101010101010101ull);
        int hitq = ((~(((t & 0x7f7f7f7f7f7f7f7full) + 0x7f7f7f7f7f7f7f7full) | t)) & ssel) != 0 || _mm512_mask_cmpeq_epi8_mask(nmask, X, _mm512_set1_epi8((char)c)) != 0;
        if (!hitq) { r = (int)c; break; }
        s &= s - 1; retries++; }
      if (r < 0) { // exact slow path
        over++; u64 bs[4] = {0};
        for (int j = 0; j < nr; j++) { int x = out[n - alld[j]] ^ allk[j]; bs[x >> 6] |= 1ull << (x & 63); }
        int x = 0; while (bs[x >> 6] >> (x & 63) & 1) x++; r = x;
      }
      out[n] = (unsigned char)r; h = (h << 8) | (u64)r;
    }
    cprog.store(n0 + B, std::memory_order_release);
#ifndef CPUONLY
    _mm512_storeu_si512(hcodes + n0, _mm512_loadu_si512(codes + n0));
    _mm_sfence();
#endif
    *hprog = n0 + B;
    pubt[b + 1] = __rdtsc();
  }
  double t1s = now(); u64 c1 = __rdtsc();
  for (auto &x : th) x.join();
  mon.join();
#ifdef CPUONLY
  fake.join();
#else
  CK(cudaStreamSynchronize(st));
#endif
  double ghz = (c1 - c0) / (t1s - t0) / 1e9;
  printf("chain: %.1f M heaps/s (%.3f s), retries %ld, slow %ld; Mcycles total %.1f, wait T1 %.1f, batch part %.1f (tsc %.2f GHz)\n", nb * B / (t1s - t0) / 1e6, t1s - t0, retries, over, (c1 - c0) / 1e6, cyc_wait / 1e6, cyc_batch / 1e6, ghz);
  // GPU latency: from the publication that let the last item of b start to all of b's tags seen
  std::vector<double> lat;
  for (u64 b = 0; b < nb; b++) { long long need = (long long)(start + b * B + 64) - (long long)D2; long long k = (need - (long long)start + B - 1) / B; if (k < 1) continue; if ((u64)k > nb) continue;
    lat.push_back(((double)tagt[b] - (double)pubt[k]) / ghz / 1e3); }
  std::sort(lat.begin(), lat.end());
  if (!lat.empty()) printf("gpu latency us: p10 %.2f median %.2f p90 %.2f p99 %.2f\n", lat[lat.size() / 10], lat[lat.size() / 2], lat[lat.size() * 9 / 10], lat[lat.size() * 99 / 100]);
  long bad = 0; for (u64 n = start; n < N && n < (u64)NF; n++) if (out[n] != cc(g[n])) bad++;
  u64 fnv = 0xcbf29ce484222325ull;
  for (u64 n = 0; n < N; n++) {
    unsigned v;
    if (n < start) v = g[n]; else { unsigned c = out[n]; v = ((c >> 1) << 2) | (c & 1); if (__builtin_popcount(v & m) % 2 == 0) v |= 2; }
    fnv = (fnv ^ (v & 0xff)) * 0x100000001b3ull; fnv = (fnv ^ (v >> 8)) * 0x100000001b3ull;
  }
  printf("bad %ld (first 4M), fnv1a64 of %llu values: %016llx\n", bad, N, fnv);
  return 0;
}
