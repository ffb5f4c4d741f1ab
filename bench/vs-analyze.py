#!/usr/bin/env python3
"""octal against tczajka's `analyze`, one program after the other, best of two runs each.

    bench/vs-analyze.py ANALYZE [GAME:K ...]

ANALYZE is the binary built from the public repository tczajka/octal-games (MIT), outside this
repository: `old/src/analyze_exec.cc` with `game.cc`, `game_util.cc` and `hadamard.cc`, as its
Makefile builds them (`g++ -O2 -std=c++11`). `analyze` has no size limit of its own: it is timed
until it prints its `n=2^K` line. `octal` (target/release/octal, two threads) solves `-n 2^K`.
Prints a markdown table: times, the ratio, and whether the largest value, its first heap and,
where both end on the same mask, the rare count and last rare heap agree.
"""
import json
import os
import re
import subprocess
import sys
import time

GAMES = [".14:20", ".04:20", ".114:18", ".004:18", ".06:18", ".36:22", ".64:22", ".74:22", ".76:18"]
OCTAL = os.path.join(os.path.dirname(__file__), "..", "target", "release", "octal")
LINE = re.compile(
    r"n=2\^(\d+) largest G\[(\d+)\]=(\d+) rare_mask=([0-9a-f]+)(pos)? num_rare=(\d+) last_rare=(\d+)"
)


def analyze(binary, game, k):
    """Seconds until analyze prints its n=2^k line, and the line's statistics."""
    t0 = time.monotonic()
    p = subprocess.Popen([binary, game], stdout=subprocess.PIPE, text=True, bufsize=1)
    for line in p.stdout:
        m = LINE.match(line)
        if m and int(m.group(1)) == k:
            dt = time.monotonic() - t0
            p.kill()
            p.wait()
            at, largest, mask, pos, rare, last = m.group(2, 3, 4, 5, 6, 7)
            return dt, {
                "max": (int(largest), int(at)),
                "space": ("domain" if pos else "range", int(mask, 16)),
                "rare": (int(rare), int(last)),
            }
    raise SystemExit(f"analyze {game} ended before n=2^{k}")


def octal(game, k):
    """Seconds octal takes for -n 2^k, start to exit, and its statistics."""
    t0 = time.monotonic()
    out = subprocess.run(
        [OCTAL, "solve", game, "-n", f"2^{k}", "--threads", "2", "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    dt = time.monotonic() - t0
    j = json.loads(out)
    s = j["sparse"]
    space = (s["kind"], int(s["mask"], 16)) if s["mask"] else None
    return dt, {
        "max": (j["max_value"], j["max_value_at"]),
        "space": space,
        "rare": (s["rare_count"], s["last_rare"]),
        "engines": "+".join(dict.fromkeys(x["engine"] for x in j["stretches"])),
    }


def main():
    if len(sys.argv) < 2:
        raise SystemExit(__doc__)
    binary = sys.argv[1]
    games = sys.argv[2:] or GAMES
    print("| game | n | analyze (1 thread) | octal (2 threads) | ratio | largest value, first heap | masks (analyze, octal) | rare count, last rare | octal engines |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in games:
        game, k = spec.split(":")
        k = int(k)
        a_times, o_times = [], []
        for _ in range(2):
            ta, sa = analyze(binary, game, k)
            to, so = octal(game, k)
            a_times.append(ta)
            o_times.append(to)
        same_max = "same" if sa["max"] == so["max"] else f"DIFFER {sa['max']} {so['max']}"
        fmt = lambda s: "none" if s is None else f"{s[0]} {s[1]:#x}"
        if so["space"] == sa["space"]:
            rare = "same" if so["rare"] == sa["rare"] else f"DIFFER {sa['rare']} {so['rare']}"
        else:
            rare = "(other masks)"
        a, o = min(a_times), min(o_times)
        print(
            f"| {game} | 2^{k} | {a:.2f} s | {o:.2f} s | **{a / o:.1f}x** | {sa['max'][0]} at {sa['max'][1]}: {same_max} "
            f"| {fmt(sa['space'])}, {fmt(so['space'])} | {rare} | {so['engines']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
