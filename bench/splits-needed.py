#!/usr/bin/env python3
"""How many splits the verifier must try to prove a heap's value, from a run's values.

    bench/splits-needed.py VALUES CODE MASK [LO HI [COUNT]]

VALUES is `octal export DIR --format bin -o VALUES` (u16 little-endian, G(0), G(1), ...), CODE
the game (e.g. .114), MASK its range-type sparse mask (e.g. 0x6ff; a value v is of the rare class
when popcount(v & MASK) is even). For COUNT heaps drawn between LO and HI (default: the last
half of the values, 150 heaps) whose value is common, it finds the splits the verification
tries, in the order `verify` tries them (the single-heap options, then the two-heap splits
(a, h - i - a) for a = 1, 2, ... of each breaking digit i, each kind up to the budget): the
least budget that finds every rare-class value below G(h). A heap needing more than the budget
is flagged and settled by the `mex` kernel (every option). Prints the distribution. Needs numpy.
"""
import sys

import numpy as np


def digits(code):
    whole, _, frac = code.partition(".")
    return [int(whole or 0)] + [int(c) for c in frac]


def main():
    values, code, mask = sys.argv[1], sys.argv[2], int(sys.argv[3], 0)
    g = np.fromfile(values, dtype="<u2").astype(np.int64)
    lo = int(sys.argv[4]) if len(sys.argv) > 4 else len(g) // 2
    hi = int(sys.argv[5]) if len(sys.argv) > 5 else len(g)
    count = int(sys.argv[6]) if len(sys.argv) > 6 else 150
    d = digits(code)
    rare = np.array([bin(v & mask).count("1") % 2 == 0 for v in range(1 << 16)])
    heaps = np.sort(np.random.default_rng(1).integers(lo, hi, count))
    needs = []
    for h in heaps:
        c = int(g[h])
        if rare[c]:
            continue  # a rare candidate is always settled exactly
        found = {}  # value -> splits of the kind that finds it first
        for i, di in enumerate(d):
            if di & 2 and h > i:
                found[int(g[h - i])] = 0
        for i, di in enumerate(d):
            m = (h - i) // 2
            if not di & 4 or m < 1:
                continue
            a = np.arange(1, m + 1)
            vals, first = np.unique(g[a] ^ g[h - i - a], return_index=True)
            for v, f in zip(vals.tolist(), first.tolist()):
                if v < c:
                    found[v] = min(found.get(v, f + 1), f + 1)
        need = [found.get(v) for v in range(c) if rare[v]]
        if None in need:
            sys.exit(f"heap {h}: G = {c} is not the mex of the values given")
        needs.append(max(need, default=0))
    needs = np.array(needs)
    print(f"{code} heaps {lo}..{hi}: {len(needs)} common heaps; splits needed: median "
          f"{int(np.median(needs))}, 90% {int(np.percentile(needs, 90))}, 99% "
          f"{int(np.percentile(needs, 99))}, max {needs.max()}")
    for k in (12, 14, 16, 17, 18, 19, 20, 21):
        print(f"  over 2^{k}: {100 * (needs > (1 << k)).mean():.1f}%")


main()
