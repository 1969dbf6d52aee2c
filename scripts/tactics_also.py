#!/usr/bin/env python3
"""Checks the misses of a tactics run: is the engine's move a second winning move?

Usage (from the repository root):

    python3 scripts/tactics_time.py --turn-ms 1000 tests/data/tactics_caro.txt 2> run.log
    python3 scripts/tactics_also.py tests/data/tactics_caro.txt run.log \
        [--engine target/release/pbrain-rensa] [--turn-ms 3000] [--build NAME] >> ALSO.txt

For every case of kind vcf or vct that the run missed, the engine's move is played and the
engine searches the opponent's reply for --turn-ms (a fresh process, as scripts/tactics_time.py
asks it). When the opponent's last reported score is a mate against itself
(`ev -M...`), the move wins as well, and a line `CASE x,y  # note` is written: the format
`tests/data/gen_tactics_caro.py --merge-also` reads. That is a long search of Rensa, not an
exhaustive threat search, so the note says how long, and which build as --build NAME. Python 3 stdlib only.
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tactics_time import ask, records  # noqa: E402


def opponent_score(engine, case, move, turn_ms):
    """The last `ev` the engine reports for the opponent after `move`, or None."""
    mover = case["tomove"]
    after = dict(case)
    after[mover] = (case.get(mover, "") + " " + move).strip()
    after["tomove"] = "white" if mover == "black" else "black"
    messages = []
    ask(engine, after, turn_ms, messages)
    evs = re.findall(r"\bev (\S+)", "\n".join(messages))
    return evs[-1] if evs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("suite")
    ap.add_argument("log", help="the output of scripts/tactics_time.py on the suite")
    ap.add_argument("--engine", default="target/release/pbrain-rensa")
    ap.add_argument("--turn-ms", type=int, default=3000)
    ap.add_argument("--build", default="", help="what to call the engine in the notes")
    a = ap.parse_args()
    cases = {c["case"]: c for c in records(a.suite)}
    misses = re.findall(r"^(\S+)\s+MISS answer \((\d+), (\d+)\)", open(a.log).read(), re.M)
    n = found = 0
    for name, x, y in misses:
        c = cases.get(name)
        if not c or c.get("kind") not in ("vcf", "vct"):
            continue
        n += 1
        move = "%s,%s" % (x, y)
        ev = opponent_score(a.engine, c, move, a.turn_ms)
        if ev and ev.startswith("-M"):
            found += 1
            print("%s %s  # %s %d ms search after the move: %s" % (name, move, a.build or "engine",
                                                                   a.turn_ms, ev))
    print("# %d misses of kind vcf/vct checked, %d also win" % (n, found), file=sys.stderr)


if __name__ == "__main__":
    main()
