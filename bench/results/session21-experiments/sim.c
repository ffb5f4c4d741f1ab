// Session 21: the chain's rounds simulated on Officers' true values (off.bin from off.c): a window of W
// heaps, options up to D1 back recomputed each round, 16 candidates from the farther ones.
// Usage: sim N W D1 S (heaps S .. N).
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define MASK 0x1ee
static int common(int v){return __builtin_popcount(v&MASK)&1;}
int main(int argc,char**argv){
 int N=atoi(argv[1]); int W=atoi(argv[2]); int D1=atoi(argv[3]); int S=atoi(argv[4]);
 FILE*f=fopen("off.bin","rb"); unsigned short*g=malloc(2*N); fread(g,2,N,f); fclose(f);
 // rare table: heaps a>=1 in first 25000 with rare value -> distance d=a+1, key r=g[a]
 int nd=0; static int dist[4096], key[4096];
 dist[nd]=1; key[nd]=0; nd++; // single heap option d=1 value g[n-1]
 for(int a=1;a<25000 && a<N;a++) if(!common(g[a])){dist[nd]=a+1;key[nd]=g[a];nd++;}
 int nnear=0; for(int i=0;i<nd;i++) if(dist[i]<=D1) nnear++;
 // candidates per heap: list of first 16 free common values after far options
 int K=16; unsigned short *cand=malloc(2*K*(size_t)N);
 static unsigned char mark[1024];
 for(int n=S;n<N;n++){ memset(mark,0,1024);
   for(int i=0;i<nd;i++){int d=dist[i]; if(d>D1 && n-d>=0 && (d>1 || 1)) { if(d==1){ mark[g[n-1]]=1;} else {int a=d-1; if(n-1-a>=1) mark[g[n-d]^key[i]]=1;} } }
   int c=0; for(int v=0;v<1024 && c<K;v++) if(!mark[v] && common(v)) cand[(size_t)n*K+c++]=v;
 }
 // check: true value is in candidate list after near options
 // Jacobi
 int *guess=malloc(4*N); long rounds=0; int p=S; long maxrank=0; long exhaust=0;
 for(int n=0;n<S;n++) guess[n]=g[n]; for(int n=S;n<N;n++) guess[n]=cand[(size_t)n*K];
 int top=S+W; if(top>N) top=N;
 int endp=N-W-D1;
 static int nv[1<<20];
 while(p<endp){
   rounds++;
   int first=-1;
   for(int n=p;n<p+W;n++){
     unsigned int hit=0; 
     for(int i=0;i<nd && dist[i]<=D1;i++){int d=dist[i]; int src=n-d; int v;
       if(d==1) v=guess[n-1]; else { if(n-1-(d-1)<1) continue; v=guess[src]^key[i]; }
       for(int c=0;c<K;c++) if(cand[(size_t)n*K+c]==v) hit|=1u<<c; }
     int r=__builtin_ctz(~hit); if(r>=K){exhaust++; r=K-1;}
     nv[n-p]=cand[(size_t)n*K+r];
   }
   for(int n=p;n<p+W;n++){ if(nv[n-p]!=guess[n] && first<0) first=n; }
   for(int n=p;n<p+W;n++) guess[n]=nv[n-p];
   int adv = first<0? W : first-p+1;
   for(int n=p;n<p+adv;n++) if(guess[n]!=g[n]){{printf("MISMATCH at %d guess %d true %d p %d first %d cands:",n,guess[n],g[n],p,first);for(int c=0;c<K;c++)printf(" %d",cand[(size_t)n*K+c]);printf("\n");return 1;}}
   p+=adv;
 }
 printf("W=%d D1=%d near=%d heaps=%d rounds=%ld adv=%.2f exhaust=%ld\n",W,D1,nnear,p-S,rounds,(double)(p-S)/rounds,exhaust);
}
