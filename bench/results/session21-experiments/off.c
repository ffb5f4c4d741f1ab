// Session 21: exact Officers values to N (O(N^2)), written to off.bin (u16) for sim.c; prints the rare heaps.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
// Officers exact values to N, print rare heaps stats
int main(int argc,char**argv){int N=atoi(argv[1]);unsigned short*g=calloc(N,2);
 static unsigned char seen[1024];
 for(int n=1;n<N;n++){memset(seen,0,1024); if(n-1>=1) seen[g[n-1]]=1;
  for(int a=1;a<=(n-1)/2;a++) seen[g[a]^g[n-1-a]]=1;
  int m=0; while(seen[m]) m++; g[n]=m;}
 FILE*f=fopen("off.bin","wb");fwrite(g,2,N,f);fclose(f);
 int cnt=0; for(int n=0;n<N;n++){int v=g[n]&0x1ee; if(!(__builtin_popcount(v)&1)){cnt++; if(n<2100)printf("%d:%d ",n,g[n]);}}
 printf("\nrare %d\n",cnt);}
