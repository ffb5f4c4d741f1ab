# Session 5: P3 = P2 plus, inside the delta phase, the slowest warp's setup (binary search and
# scan) and pair loop, and the pairs a round.
exec(open('make2.py').read().replace("open('P2.cu', 'w').write(p)", ""))
p = sub(p, "    __shared__ long long pr[8];", "    __shared__ long long pr[8];\n    __shared__ unsigned long long pz[4];")
p = sub(p, "    if (tid == 0) for (int i = 0; i < 8; i++) pr[i] = 0;", "    if (tid == 0) for (int i = 0; i < 8; i++) pr[i] = 0;\n    if (tid == 0) for (int i = 0; i < 4; i++) pz[i] = 0;\n    __shared__ unsigned long long rmax[2];")
p = sub(p, "        for (unsigned i0 = warp * 32u; i0 < nch; i0 += SPEC_THREADS) {", "        if (tid == 0) { rmax[0] = 0; rmax[1] = 0; }\n        __syncthreads();\n        long long ta = clock64();\n        for (unsigned i0 = warp * 32u; i0 < nch; i0 += SPEC_THREADS) {")
p = sub(p, "            unsigned pairs = __shfl_sync(FULL, upto, 31);", "            unsigned pairs = __shfl_sync(FULL, upto, 31);\n            long long tb = clock64();\n            if (lane == 0) { atomicMax(rmax, (unsigned long long)(tb - ta)); atomicAdd(pz + 2, (unsigned long long)pairs); }")
p = sub(p, "        // The heaps entering the window, every option", "        if (lane == 0) atomicMax(rmax + 1, (unsigned long long)(clock64() - ta));\n        __syncthreads();\n        if (tid == 0) { pz[0] += rmax[0]; pz[1] += rmax[1]; }\n        // The heaps entering the window, every option", )
p = sub(p, "printf(\"prof block %d rounds %u deltas", "printf(\"prof setup-max %llu all-max %llu pairs %llu block %d rounds %u deltas")
p = sub(p, "\\n\", (int)b, round,", "\\n\", pz[0] / round, pz[1] / round, pz[2] / round, (int)b, round,")
open('P3.cu', 'w').write(p)
