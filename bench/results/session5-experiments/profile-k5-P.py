# Session 5 variants of kernels-gen 5's spec (Officers, from `octal codegen .6 --cuda`).
import re
base = open('base.cu').read()
def sub(s, old, new, count=1):
    assert s.count(old) == count, (old, s.count(old))
    return s.replace(old, new)
# P: per-block phase profile (thread 0's clock64 at the block barriers): deltas, fresh, mex,
# grid barrier wait, reload+zero; and changes and fresh tasks a round.
p = base
p = sub(p, "    __shared__ unsigned n_changes, kbase;", "    __shared__ unsigned n_changes, kbase;\n    __shared__ long long pr[8];")
p = sub(p, "    unsigned round = 0;\n    while (p < hi) {", "    unsigned round = 0;\n    if (tid == 0) for (int i = 0; i < 8; i++) pr[i] = 0;\n    long long tp = clock64();\n    while (p < hi) {")
p = sub(p, "        // The heaps entering the window, every option", "        __syncthreads();\n        if (tid == 0) { long long t = clock64(); pr[0] += t - tp; tp = t; pr[5] += nch; }\n        // The heaps entering the window, every option")
p = sub(p, "        __syncthreads();\n        if (tid == 0) {\n            n_changes = 0u;", "        __syncthreads();\n        if (tid == 0) { long long t = clock64(); pr[1] += t - tp; tp = t; pr[6] += tasks; }\n        if (tid == 0) {\n            n_changes = 0u;")
p = sub(p, "        __syncthreads();\n        unsigned rs = round % 3u;\n        if (tid == 0) {", "        __syncthreads();\n        unsigned rs = round % 3u;\n        if (tid == 0) { long long t = clock64(); pr[2] += t - tp; tp = t; }\n        if (tid == 0) {")
p = sub(p, "            block_min[0] = NONE;\n            block_min[1] = NONE;\n        }\n        __syncthreads();\n        u64 changed", "            block_min[0] = NONE;\n            block_min[1] = NONE;\n            long long t = clock64(); pr[3] += t - tp; tp = t;\n        }\n        __syncthreads();\n        u64 changed")
p = sub(p, "        __syncthreads();\n        if (stop) {", "        __syncthreads();\n        if (tid == 0) { long long t = clock64(); pr[4] += t - tp; tp = t; }\n        if (stop) {")
p = sub(p, "    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;\n}", "    if (b == 0 && tid == 0) ctl[CTL_ROUNDS] += round;\n    if (tid == 0 && round > 1000u && b % 33u == 0u) printf(\"prof block %d rounds %u deltas %lld fresh %lld mex %lld wait %lld reload %lld changes %lld tasks %lld\\n\", (int)b, round, pr[0] / round, pr[1] / round, pr[2] / round, pr[3] / round, pr[4] / round, pr[5] / round, pr[6] / round);\n}")
open('P.cu', 'w').write(p)
