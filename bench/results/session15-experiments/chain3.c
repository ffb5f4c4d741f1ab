// Chain core prototype: GPU candidates (d > D2) and T1 masks (DT < d <= D2) precomputed;
// the chain does d <= DT: SWAR (d <= 8), near vector (9..72), batch part (73..DT).
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <immintrin.h>
#define K 8
#define B 64
static uint16_t g[1<<22];
static uint8_t code[1<<22];
static int rare[2000], nr;
static inline int cc(int v){ return ((v>>2)<<1)|(v&1); }
static double now(){struct timespec t; clock_gettime(CLOCK_MONOTONIC,&t); return t.tv_sec+t.tv_nsec*1e-9;}
typedef struct { uint8_t c[K][B]; } Cands;   // per batch
static Cands *cands; static uint64_t (*t1)[K];
static uint8_t out[1<<22];
static int bd[2000]; static uint8_t bk[2000]; static int nb; // batch distances (73..DT)
// hit masks of batch [n0, n0+64) for distances list
static inline void batch_hits(const uint8_t*o, int n0, const Cands*cd, const int*ds, const uint8_t*ks, int cnt, uint64_t*hit){
  __m512i cv[K]; for(int i=0;i<K;i++) cv[i]=_mm512_loadu_si512(cd->c[i]);
  __mmask64 h[K]={0};
  for(int j=0;j<cnt;j++){
    __m512i x=_mm512_xor_si512(_mm512_loadu_si512(o+n0-ds[j]),_mm512_set1_epi8((char)ks[j]));
    for(int i=0;i<K;i++) h[i]|=_mm512_cmpeq_epi8_mask(x,cv[i]);
  }
  for(int i=0;i<K;i++) hit[i]|=h[i];
}
int main(int argc,char**argv){
  int DT=atoi(argv[1]), D2=atoi(argv[2]);
  FILE*f=fopen("off22.bin","rb"); fread(g,2,1<<22,f);
  int m=0x1ee, N=1<<22;
  for(int a=0;a<30000&&nr<1584;a++) if(__builtin_popcount(g[a]&m)%2==0) rare[nr++]=a;
  for(int n=0;n<N;n++) code[n]=cc(g[n]);
  int start=65536, end=N; int nbat=(end-start)/B;
  cands=aligned_alloc(64,sizeof(Cands)*nbat); t1=aligned_alloc(64,sizeof(uint64_t)*K*nbat);
  int t1d[2000]; uint8_t t1k[2000]; int nt1=0;
  int nd[64]; uint8_t nk[64]; int nn=0; int sd[8]; uint8_t sk[8]; int ns=0;
  for(int j=0;j<nr;j++){int d=rare[j]+1; uint8_t k=cc(g[rare[j]]);
    if(d<=8){sd[ns]=d;sk[ns]=k;ns++;} else if(d<=72){nd[nn]=d;nk[nn]=k;nn++;} else if(d<=DT){bd[nb]=d;bk[nb]=k;nb++;} else if(d<=D2){t1d[nt1]=d;t1k[nt1]=k;nt1++;}}
  printf("DT=%d D2=%d: swar %d near %d batch %d t1 %d gpu %d\n",DT,D2,ns,nn,nb,nt1,nr-ns-nn-nb-nt1);
  long over=0;
  for(int b=0;b<nbat;b++) for(int q=0;q<B;q++){ int n=start+b*B+q;
    uint64_t bs[4]={0};
    for(int j=0;j<nr;j++){int d=rare[j]+1; if(d<=D2) continue; int x=code[n-d]^cc(g[rare[j]]); bs[x>>6]|=1ull<<(x&63);}
    int k=0; for(int x=0;x<256&&k<K;x++) if(!(bs[x>>6]>>(x&63)&1)) cands[b].c[k++][q]=x;
    while(k<K) cands[b].c[k++][q]=0xfe; // never a code of Officers here (max code < 160)
  }
  double tt0=now();
  for(int b=0;b<nbat;b++){ memset(t1[b],0,sizeof t1[b]); batch_hits(code,start+b*B,&cands[b],t1d,t1k,nt1,t1[b]); }
  double tt1=now(); printf("T1 batch rate (1 core): %.1f M heaps/s\n", nbat*B/(tt1-tt0)/1e6);
  // near vector tables: window out[n-72 .. n-8): byte p is heap n-72+p, d = 72-p
  uint8_t ib[64]={0}, kb[64]={0}; for(int j=0;j<nn;j++){ib[j]=72-nd[j]; kb[j]=nk[j];}
  __m512i nidx=_mm512_loadu_si512(ib), nkey=_mm512_loadu_si512(kb); __mmask64 nmask=(1ull<<nn)-1;
  // SWAR: h byte i = code(n-1-i); key bytes at positions d-1, sel mask
  uint64_t skey=0, ssel=0; for(int j=0;j<ns;j++){skey|=(uint64_t)sk[j]<<(8*(sd[j]-1)); ssel|=0x80ull<<(8*(sd[j]-1));}
  for(int rep=0;rep<4;rep++){
    memcpy(out,code,start);
    uint64_t h=0; for(int i=0;i<8;i++) h|=(uint64_t)code[start-1-i]<<(8*i);
    long slow=0, over=0;
    double t0=now();
    for(int b=0;b<nbat;b++){
      int n0=start+b*B;
      uint64_t hit[K]; for(int i=0;i<K;i++) hit[i]=t1[b][i];
      batch_hits(out,n0,&cands[b],bd,bk,nb,hit);
      // per-heap surviving masks: byte q bit i = candidate i not hit
      __m512i sv=_mm512_set1_epi8(-1);
      for(int i=0;i<K;i++) sv=_mm512_mask_andnot_epi64(sv,0xff,_mm512_maskz_set1_epi8(hit[i],(char)(1<<i)),sv);
      uint8_t surv[B]; _mm512_storeu_si512(surv,sv);
      for(int q=0;q<B;q++){
        int n=n0+q;
        __m512i X=_mm512_xor_si512(_mm512_permutexvar_epi8(nidx,_mm512_loadu_si512(out+n-72)),nkey);
        unsigned s=surv[q]; int r=-1;
        while(s){ int i=__builtin_ctz(s); uint64_t c=cands[b].c[i][q];
          uint64_t t=(h^skey)^(c*0x0101010101010101ull);
          int hit= ((~(((t&0x7f7f7f7f7f7f7f7full)+0x7f7f7f7f7f7f7f7full)|t))&ssel)!=0 || _mm512_mask_cmpeq_epi8_mask(nmask,X,_mm512_set1_epi8((char)c))!=0;
          if(!hit){r=(int)c;break;}
          s&=s-1; slow++;
        }
        if(r<0){over++; r=code[n];}
        out[n]=r; h=(h<<8)|(uint64_t)r;
      }
    }
    double t1_=now();
    int bad=0; for(int n=start;n<start+nbat*B;n++) if(out[n]!=code[n]) bad++;
    printf("chain: %.1f M heaps/s, bad %d, retries %ld, overflow %ld\n",nbat*B/(t1_-t0)/1e6,bad,slow,over);
  }
}
