# entering.py's rounds() measured in its steady state: the advance over rounds R0 + 1 .. R (the
# first rounds start from an empty window and run fast) and where p stood after R0 + 1 rounds.
# The rounds are deterministic, so two runs of rounds() give both.
from entering import rounds
def rounds2(W, R, enter, R0):
    a = round(rounds(W, R, enter) * R)
    b = round(rounds(W, R0 + 1, enter) * (R0 + 1))
    return (a - b) / (R - 1 - R0), b
