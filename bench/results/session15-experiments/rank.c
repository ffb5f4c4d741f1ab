// The rank of G(n) among the free codes of its options reaching more than F heaps back (Officers,
// heaps 1e5 .. 1.1e6 of off22.bin): how many candidates a far-only pass must hand on.
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
// rank of true code among free codes of options with d > F
int main(int argc,char**argv){
  FILE*f=fopen("off22.bin","rb"); static uint16_t g[1<<22]; fread(g,2,1<<22,f);
  int m=0x1ee; int N=1<<22;
  int rare[2000],nr=0; for(int a=0;a<30000&&nr<1584;a++){ if(__builtin_popcount(g[a]&m)%2==0) rare[nr++]=a; }
  int Fs[]={2,16,64,128,256,512,1024,2048,4096};
  for(int fi=0;fi<9;fi++){ int F=Fs[fi]; long hist[64]={0}; int mx=0;
   for(int n=100000;n<1100000;n++){
     uint64_t b[8]={0};
     for(int j=0;j<nr;j++){int d=rare[j]+1; if(d<=F) continue; int v=g[n-d]^g[rare[j]]; if(__builtin_popcount(v&m)%2==1){ b[v>>6]|=1ull<<(v&63);} }
     int v=g[n]; if(__builtin_popcount(v&m)%2==0){continue;}
     // rank among common values not hit
     int r=0; for(int x=0;x<v;x++){ if(__builtin_popcount(x&m)%2==1 && !(b[x>>6]>>(x&63)&1)) r++; }
     if(r>mx)mx=r; hist[r<63?r:63]++;
   }
   printf("F=%d max rank %d:",F,mx); long c=0; for(int r=0;r<=mx&&r<64;r++){c+=hist[r]; printf(" %d:%.6f",r,c/1e6);} printf("\n");
  }
}
