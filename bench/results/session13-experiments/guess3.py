# python3 guess3.py W K R C: as guess2.py with S = 0, but after the first pass a heap sees only
# its own chunk's (C consecutive entering heaps) latest values, the other entering heaps'
# first-pass values (blocks iterating their chunk locally); heaps a round.
import sys, numpy as np
from entering import comp, rounds
W, K, R, C = (int(x) for x in sys.argv[1:5])
def enter(newh, V, hist):
    base = V.copy()
    base[newh] = comp(newh, V)
    cur = base.copy()
    for _ in range(K - 1):
        out = np.empty(len(newh), dtype=V.dtype)
        for c0 in range((newh[0] // C) * C, newh[-1] + 1, C):
            ch = newh[(newh >= c0) & (newh < c0 + C)]
            if len(ch):
                src = base.copy(); src[ch] = cur[ch]
                out[ch - newh[0]] = comp(ch, src)
        cur[newh] = out
    return cur[newh]
print(f"W={W} K={K} C={C}: {rounds(W, R, enter):.0f} heaps a round")
