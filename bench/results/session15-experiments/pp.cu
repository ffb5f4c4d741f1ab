// PCIe round trips between a host thread and a persistent kernel through mapped pinned memory:
// a flag (A), 256 bytes in and 1 KiB out (B), and a relay through device memory to W blocks (C).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <chrono>
#include <cuda_runtime.h>
#define CK(x) do{cudaError_t e=(x); if(e){printf("err %s line %d\n",cudaGetErrorString(e),__LINE__); exit(1);}}while(0)
__global__ void ppA(volatile unsigned *a, volatile unsigned *b, int iters){
  if(threadIdx.x) return;
  for(int i=1;i<=iters;i++){ while(a[0]!=(unsigned)i); b[0]=i; __threadfence_system(); }
}
__global__ void ppB(volatile unsigned *a, const volatile unsigned char *codes, volatile unsigned *res, volatile unsigned *b, int iters){
  __shared__ unsigned char s[256];
  for(int i=1;i<=iters;i++){
    if(threadIdx.x==0){ while(a[0]!=(unsigned)i); __threadfence(); }
    __syncthreads();
    s[threadIdx.x]=codes[threadIdx.x];
    __syncthreads();
    res[threadIdx.x]= s[threadIdx.x]*3u + s[255-threadIdx.x] + i;
    __threadfence_system();
    __syncthreads();
    if(threadIdx.x==0){ b[0]=i; __threadfence_system(); }
  }
}
__global__ void ppC(volatile unsigned *a, const volatile unsigned char *codes, unsigned char *dcodes, volatile unsigned *dflag,
                    volatile unsigned *res, volatile unsigned *bflags, int iters){
  for(int i=1;i<=iters;i++){
    if(blockIdx.x==0){
      if(threadIdx.x==0){ while(a[0]!=(unsigned)i); __threadfence(); }
      __syncthreads();
      dcodes[threadIdx.x]=codes[threadIdx.x];
      __threadfence();
      __syncthreads();
      if(threadIdx.x==0){ atomicExch((unsigned*)dflag,(unsigned)i); }
    } else {
      if(threadIdx.x==0){ while(dflag[0]!=(unsigned)i); __threadfence(); }
      __syncthreads();
      unsigned v=((volatile unsigned char*)dcodes)[threadIdx.x];
      res[blockIdx.x*256+threadIdx.x]=v+i;
      __threadfence_system();
      __syncthreads();
      if(threadIdx.x==0){ bflags[blockIdx.x]=i; __threadfence_system(); }
    }
  }
}
int main(){
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p,0)); printf("%s SMs %d\n",p.name,p.multiProcessorCount);
  unsigned *h; CK(cudaHostAlloc(&h, 1<<20, cudaHostAllocMapped)); memset(h,0,1<<20);
  unsigned *d; CK(cudaHostGetDevicePointer(&d,h,0));
  volatile unsigned *ha=h, *hb=h+64; unsigned char *hc=(unsigned char*)(h+1024); unsigned *hr=h+4096; volatile unsigned *hbf=h+128;
  int iters=20000;
  ppA<<<1,32>>>(d,d+64,iters);
  auto t0=std::chrono::steady_clock::now();
  for(int i=1;i<=iters;i++){ ha[0]=i; while(hb[0]!=(unsigned)i); }
  auto t1=std::chrono::steady_clock::now();
  CK(cudaDeviceSynchronize());
  printf("A flag round trip: %.3f us\n", std::chrono::duration<double>(t1-t0).count()/iters*1e6);
  memset(h,0,1<<20);
  ppB<<<1,256>>>(d,(unsigned char*)(d+1024),d+4096,d+64,iters);
  t0=std::chrono::steady_clock::now();
  long bad=0;
  for(int i=1;i<=iters;i++){ for(int k=0;k<256;k++) hc[k]=(unsigned char)(k+i); __atomic_thread_fence(__ATOMIC_SEQ_CST); ha[0]=i; while(hb[0]!=(unsigned)i);
     for(int k=0;k<256;k+=37){ unsigned e=(unsigned char)(k+i)*3u+(unsigned char)(255-k+i)+i; if(((volatile unsigned*)hr)[k]!=e) bad++; } }
  t1=std::chrono::steady_clock::now();
  CK(cudaDeviceSynchronize());
  printf("B data round trip (256 B in, 1 KiB out): %.3f us, bad %ld\n", std::chrono::duration<double>(t1-t0).count()/iters*1e6, bad);
  for(int W : {1, 8, 32}){
    memset(h,0,1<<20);
    unsigned char *dc; unsigned *df; CK(cudaMalloc(&dc,256)); CK(cudaMalloc(&df,4)); CK(cudaMemset(df,0,4));
    ppC<<<W+1,256>>>(d,(unsigned char*)(d+1024),dc,df,d+8192,d+128,iters);
    t0=std::chrono::steady_clock::now();
    for(int i=1;i<=iters;i++){ for(int k=0;k<256;k++) hc[k]=(unsigned char)(k+i); __atomic_thread_fence(__ATOMIC_SEQ_CST); ha[0]=i;
      for(int w=1;w<=W;w++) while(hbf[w]!=(unsigned)i); }
    t1=std::chrono::steady_clock::now();
    CK(cudaDeviceSynchronize());
    printf("C relay to %d blocks: %.3f us\n", W, std::chrono::duration<double>(t1-t0).count()/iters*1e6);
  }
  return 0;
}
