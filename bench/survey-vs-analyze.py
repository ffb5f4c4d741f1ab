#!/usr/bin/env python3
"""survey-vs-analyze.py ANALYZE DIR: checks every periodic class of the survey in DIR against
tczajka's analyze (tczajka/octal-games, old/, built outside this repository): analyze must find
the same preperiod and period for the class's representative. Prints each disagreement and a
count; exit status 1 if any."""
import json, subprocess, sys

analyze, survey = sys.argv[1], sys.argv[2]
classes = json.load(open(f"{survey}/survey.json"))["classes"]
checked, bad = 0, 0
for c in classes:
    if c["status"] != "periodic":
        continue
    code, p = c["class"], c["period"]
    try:
        out = subprocess.run([analyze, code], capture_output=True, text=True, timeout=600).stdout
    except subprocess.TimeoutExpired:
        print(f"{code}: analyze did not end in 600 s")
        bad += 1
        continue
    found = [l for l in out.splitlines() if l.startswith("Found period")]
    want = f"Found period start={p['preperiod']} period={p['period']}"
    checked += 1
    if found != [want]:
        print(f"{code}: octal {want!r}, analyze {found!r}")
        bad += 1
print(f"{checked} periodic classes checked, {bad} disagreements")
sys.exit(1 if bad else 0)
