import os
os.chdir('/work/main/.carry-gpu/exp5')
new = open('new.cu').read()
def sub(s, old, new_, count=1):
    assert s.count(old)==count, (old, s.count(old))
    return s.replace(old,new_)
# E1: unroll 8
open('E1.cu','w').write(sub(new, "#define SPEC_UNROLL 4", "#define SPEC_UNROLL 8"))
# E2: settling with a coarse bound: options [s, near) whose sources are proved (dist > n - p)
# go into the slot once (direct shared atomics); the round recomputes only [0, s).
e2 = new
e2 = sub(e2, """    __shared__ u64 block_min[2], round_end[2];""", """    __shared__ u64 block_min[2], round_end[2];
    __shared__ unsigned settled[FAR_SLOTS];""")
e2 = sub(e2, """    unsigned *mine = bitsets + warp * 32u * WORDS + lane;""", """    unsigned *mine = bitsets + warp * 32u * WORDS + lane;
    // Lane l's sample: the distance of option l * near / 32 (a bound on which options are proved).
    unsigned sample = OPTION_DIST[lane * near / 32u];""")
e2 = sub(e2, """            bool fresh = n >= fresh_from;
            if (fresh) {
                mark_options(opts, ring, codes, mine, slot, lane, n, near, N_OPTIONS);
                if (lane < WORDS) marks[lane] = 0u;
                __syncwarp();
            } else {
                mark_options(opts, ring, codes, mine, marks, lane, n, 0u, near);
            }""", """            bool fresh = n >= fresh_from;
            // Options [s, near) have proved sources: dist > n - p.
            unsigned above_t = __ballot_sync(0xffffffffu, sample > (unsigned)(n - p));
            unsigned s = above_t ? (unsigned)(__ffs(above_t) - 1) * near / 32u : near;
            unsigned s_old = fresh ? near : settled[k % FAR_SLOTS];
            if (fresh) mark_options(opts, ring, codes, mine, slot, lane, n, near, N_OPTIONS);
            if (s < s_old) {
                for (unsigned j = s + lane; j < s_old; j += 32u) {
                    Option o = opts[j];
                    unsigned x = (unsigned)SOURCE_BACK(n, o.dist) ^ o.code;
                    atomicOr(slot + (x >> 5), 1u << (x & 31u));
                }
                __syncwarp();
                if (lane == 0) settled[k % FAR_SLOTS] = s;
            }
            if (fresh) {
                if (lane == 0) settled[k % FAR_SLOTS] = min(s, s_old);
                if (lane < WORDS) marks[lane] = 0u;
                __syncwarp();
            } else {
                mark_options(opts, ring, codes, mine, marks, lane, n, 0u, min(s, s_old));
            }""")
open('E2.cu','w').write(e2)
# E3: E2 without the first-round shortcut: fresh heaps mark their near options too, and count
# as changed only when their code changes.
e3 = sub(e2, """            if (fresh) {
                if (lane == 0) settled[k % FAR_SLOTS] = min(s, s_old);
                if (lane < WORDS) marks[lane] = 0u;
                __syncwarp();
            } else {
                mark_options(opts, ring, codes, mine, marks, lane, n, 0u, min(s, s_old));
            }""", """            if (fresh && lane == 0) settled[k % FAR_SLOTS] = min(s, s_old);
            mark_options(opts, ring, codes, mine, marks, lane, n, 0u, min(s, s_old));""")
e3 = sub(e3, """                if (fresh) {
                    if (c < CODES && c != (unsigned)SOURCE(n)) codes[n] = (code_t)c;
                    atomicMin(block_min, 2u * n + 1u);
                } else if (c >= CODES) {""", """                if (c >= CODES) {""")
open('E3.cu','w').write(e3)
