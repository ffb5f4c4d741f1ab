# Session 5: phase profile (P2) of kernels-gen 5 after the ctl and delta-list fixes.
base = open('base2.cu').read()
def sub(s, old, new, count=1):
    assert s.count(old) == count, (old, s.count(old))
    return s.replace(old, new)
p = base
p = sub(p, "    __shared__ bool stop;", "    __shared__ bool stop;\n    __shared__ long long pr[8];")
p = sub(p, "    unsigned round = 0;\n    while (p < hi) {", "    unsigned round = 0;\n    if (tid == 0) for (int i = 0; i < 8; i++) pr[i] = 0;\n    long long tp = clock64();\n    while (p < hi) {")
p = sub(p, "        // The heaps entering the window, every option", "        __syncthreads();\n        if (tid == 0) { long long t = clock64(); pr[0] += t - tp; tp = t; pr[5] += nch; }\n        // The heaps entering the window, every option")
p = sub(p, "        __syncthreads();\n        if (tid == 0) {\n            // cbase", "        __syncthreads();\n        if (tid == 0) { long long t = clock64(); pr[1] += t - tp; tp = t; pr[6] += tasks; }\n        if (tid == 0) {\n            // cbase")
p = sub(p, "        __syncthreads();\n        unsigned rs = round % 3u;\n        if (tid == 0) {", "        __syncthreads();\n        unsigned rs = round % 3u;\n        if (tid == 0) { long long t = clock64(); pr[2] += t - tp; tp = t; }\n        if (tid == 0) {")
p = sub(p, "            block_min[0] = ~0u;\n            block_min[1] = ~0u;\n        }\n        __syncthreads();\n        if (warp == 0) {", "            block_min[0] = ~0u;\n            block_min[1] = ~0u;\n            long long t = clock64(); pr[3] += t - tp; tp = t;\n        }\n        __syncthreads();\n        if (warp == 0) {")
p = sub(p, "        round++;\n        __syncthreads();\n        if (stop) break;", "        round++;\n        __syncthreads();\n        if (tid == 0) { long long t = clock64(); pr[4] += t - tp; tp = t; }\n        if (stop) break;")
p = sub(p, "    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;\n}", "    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;\n    if (tid == 0 && round > 1000u && b % 33u == 0u) printf(\"prof block %d rounds %u deltas %lld fresh %lld mex %lld wait %lld reload %lld changes %lld tasks %lld\\n\", (int)b, round, pr[0] / round, pr[1] / round, pr[2] / round, pr[3] / round, pr[4] / round, pr[5] / round, pr[6] / round);\n}")
open('P2.cu', 'w').write(p)
