# python3 guess2.py W K R S: K Jacobi passes among the heaps entering the window before they join
# it, reading the window as it was S rounds before (S = 0: this round's); heaps a round.
import sys
from entering import comp, rounds
W, K, R, S = (int(x) for x in sys.argv[1:5])
def enter(newh, V, hist):
    old = hist[max(0, len(hist) - 1 - S)].copy()
    for _ in range(K):
        old[newh] = comp(newh, old)
    return old[newh]
print(f"W={W} K={K} S={S}: {rounds(W, R, enter):.0f} heaps a round")
