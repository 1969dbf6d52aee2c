#!/usr/bin/env python3
"""Run the tactics suite through the real binary at a fixed time per move.

Usage (from the repository root, after `cargo build --release`):

    python3 scripts/tactics_time.py [--engine target/release/pbrain-rensa] [--turn-ms 100] \
        tests/data/tactics.txt tests/data/tactics_vct.txt

`cargo test` checks the same positions with node budgets, which do not depend on the
machine; this script answers "how many are solved at 100 ms and at 1 s a move" on this
machine, as a Gomocup manager would ask: START, INFO rule and timeout_turn, BOARD ... DONE.
A position is solved when the answer is one of the recorded answers. Python 3 stdlib only.
"""

import argparse
import re
import subprocess
import sys
from collections import defaultdict


def records(path):
    """The `case` ... `end` blocks of a fixture file as dicts. A case whose comment line names
    the game's ply (the loss suites' `# GAMES game N ply P, ...`) gets it as `ply`."""
    out, cur, ply = [], None, None
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("#"):
                found = re.search(r"\bply (\d+),", line)
                if found:
                    ply = int(found.group(1))
                continue
            if not line:
                continue
            key, _, value = line.partition(" ")
            if key == "case":
                cur = {"case": value}
                if ply is not None:
                    cur["ply"] = ply
                ply = None
            elif key == "end":
                out.append(cur)
                cur = None
            elif cur is not None:
                cur[key] = value
    return out


# Game plies at which the --by-ply counts start.
PLY_BUCKETS = [0, 10, 20, 40]


def points(text):
    return [tuple(int(v) for v in p.split(",")) for p in (text or "").split()]


def ask(engine, case, turn_ms, messages=None):
    """The engine's move for the case's position, as (x, y), or None. The MESSAGE lines
    before it go to `messages` when a list is given. A case with `moves` (the stones in
    playing order, black first) sends them in that order."""
    size = int(case.get("size", 15))
    me = case["tomove"]
    lines = [f"START {size}", f"INFO rule {case['rule']}", f"INFO timeout_turn {turn_ms}",
             "INFO timeout_match 0", "BOARD"]
    # Own stones are 1, the opponent's 2; the fixtures' order (by colour) does not matter
    # to the answer, a game's order keeps its last move last.
    if "moves" in case:
        own = 0 if me == "black" else 1
        lines += [f"{x},{y},{1 if i % 2 == own else 2}"
                  for i, (x, y) in enumerate(points(case["moves"]))]
    else:
        for colour in ("black", "white"):
            field = 1 if colour == me else 2
            lines += [f"{x},{y},{field}" for x, y in points(case.get(colour))]
    lines += ["DONE"]
    proc = subprocess.Popen([engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    proc.stdin.write("\n".join(lines) + "\n")
    proc.stdin.flush()
    answer = None
    for line in proc.stdout:
        line = line.strip()
        if line in ("OK",) or line.startswith(("MESSAGE", "DEBUG")):
            if messages is not None and line.startswith("MESSAGE"):
                messages.append(line)
            continue
        if line.startswith(("ERROR", "UNKNOWN")):
            break
        try:
            x, y = (int(v) for v in line.split(","))
            answer = (x, y)
        except ValueError:
            pass
        break
    proc.stdin.write("END\n")
    proc.stdin.flush()
    proc.wait(timeout=5)
    return answer


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--engine", default="target/release/pbrain-rensa")
    ap.add_argument("--turn-ms", type=int, default=100)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--by-ply", action="store_true",
                    help="also count by the game ply a case arose at (the loss suites record it)")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    groups = defaultdict(lambda: [0, 0, 0])
    by_ply = defaultdict(lambda: [0, 0])
    for path in args.files:
        for case in records(path):
            answers = set(points(case["answers"]))
            move = ask(args.engine, case, args.turn_ms)
            ok = move in answers
            g = groups[(case["rule"], case["kind"])]
            g[0] += 1
            g[1] += ok
            # `avoid` cases also list moves judged to lose; any other miss is unjudged
            loses = move in set(points(case.get("losing")))
            g[2] += loses
            if "ply" in case:
                b = by_ply[next(lo for lo in PLY_BUCKETS[::-1] if case["ply"] >= lo)]
                b[0] += 1
                b[1] += ok
            if args.verbose or not ok:
                note = " (judged to lose)" if loses else ""
                print(f"{case['case']:<18} {'ok' if ok else 'MISS':<4} answer {move}{note}",
                      file=sys.stderr)
    names = {"0": "freestyle", "1": "standard", "4": "renju"}
    total = [0, 0]
    for (rule, kind), (n, ok, loses) in sorted(groups.items()):
        judged = f"  ({loses} judged to lose)" if kind == "avoid" else ""
        print(f"{names.get(rule, rule):<9} {kind:<7} {ok:>3}/{n}{judged}")
        total[0] += n
        total[1] += ok
    if args.by_ply:
        bounds = PLY_BUCKETS + [None]
        for lo, hi in zip(bounds, bounds[1:]):
            if lo in by_ply:
                n, ok = by_ply[lo]
                span = f"{lo}-{hi - 1}" if hi else f"{lo}+"
                print(f"ply {span:<7} {ok:>3}/{n}")
    print(f"solved at {args.turn_ms} ms a move: {total[1]}/{total[0]}")


if __name__ == "__main__":
    main()
