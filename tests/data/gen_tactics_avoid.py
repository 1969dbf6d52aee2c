#!/usr/bin/env python3
"""Generate tests/data/tactics_avoid_*.txt: the moves that lost Rensa its games, and the
moves a long search finds instead.

Usage (from the repository root, after `cargo build --release`):

    python3 tests/data/gen_tactics_avoid.py [--engine target/release/pbrain-rensa] \
        [--jobs 2] GAMES.jsonl... > tests/data/tactics_avoid_NAME.txt

GAMES.jsonl are the referee's game records (the fields gen_tactics_losses.py reads).
Only games that Rensa lost by the opponent's five under rules 0, 1 and 4 are used
(gen_tactics_losses.py's lost_games).

The suites of gen_tactics_losses.py hold what an exhaustive solver can prove: wins by
continuous threats of at most 6 attacker moves. Rensa at 200 ms a move solves most of
them, yet it still loses those games: the wins that beat it are longer (mates in 9 to 29
plies) and often not pure threat sequences. This generator finds them with the engine
itself as the judge, by long searches, as the issue allows ("verified by exhaustive
threat search, by a long search of Rensa, or both"):

1. Replay the game. After each of Rensa's moves, search the position (the opponent to
   move) for --find-ms. The first where the search reports a forced win for the opponent
   (`ev +M...`) is where the game was lost: the move before it is the losing move.
2. In the position before the losing move, ask the engine for its move at each of
   --try-ms (fresh process each time, so no table carries over from the game).
3. Judge every distinct candidate (the game's move and those answers) by a --hold-ms
   search after it: a forced win for the opponent means it loses; else it holds.
4. Write the position when the game's move is judged lost and some candidate holds:
   kind `avoid`, `answers` = the candidates that hold, `losing` = those that lose (the
   game's move among them). The comment gives the mate the judge saw after each.

A move not among the answers is not proved to lose: `scripts/tactics_time.py` counts it
as unsolved, so the score is a lower bound, biased towards the judge's own choices. The
verdicts are searches, not proofs, and the clock makes them depend on the machine and
its load: regenerate on an idle machine. Python 3 standard library only.
"""

import argparse
import importlib.util
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

_here = os.path.dirname(os.path.abspath(__file__))


def _load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# the protocol driver of the time-based scorer, and the lost-game filter of the
# exhaustive loss suites
tactics_time = _load("tactics_time",
                     os.path.join(os.path.dirname(os.path.dirname(_here)), "scripts",
                                  "tactics_time.py"))
losses = _load("gen_tactics_losses", os.path.join(_here, "gen_tactics_losses.py"))


def search(engine, rule, size, moves, ms):
    """(answer as "x,y", last reported score) of a fresh engine process on the position."""
    case = {"rule": rule, "size": size, "moves": " ".join(moves),
            "tomove": "black" if len(moves) % 2 == 0 else "white"}
    messages = []
    answer = tactics_time.ask(engine, case, ms, messages)
    scores = [m.group(1) for m in (re.search(r" ev (\S+)", line) for line in messages) if m]
    return (f"{answer[0]},{answer[1]}" if answer else None), (scores[-1] if scores else None)


def wins(score):
    return score is not None and score.startswith("+M")


def examine(args, source, g, rensa):
    """The case of one game Rensa (colour `rensa`) lost, or None."""
    rule, size = g["rule"], g["size"]
    moves, start = g["moves"].split(), g["opening_plies"]
    rensa_black = rensa == losses.BLACK
    ours = [i for i in range(start, len(moves)) if (i % 2 == 0) == rensa_black]
    lost_at, mate = None, None
    for i in ours:
        _, score = search(args.engine, rule, size, moves[: i + 1], args.find_ms)
        if wins(score):
            lost_at, mate = i, score
            break
    if lost_at is None:
        return None
    pos, played = moves[:lost_at], moves[lost_at]
    cands = [played]
    for ms in args.try_ms:
        answer, _ = search(args.engine, rule, size, pos, ms)
        if answer and answer not in cands:
            cands.append(answer)
    holds, loses = [], []
    for c in cands:
        _, score = search(args.engine, rule, size, pos + [c], args.hold_ms)
        (loses if wins(score) else holds).append((c, score))
    if played not in [c for c, _ in loses] or not holds:
        return None
    return dict(source=source, game=g["game"], rule=rule, size=size, pos=pos,
                played=played, mate=mate, holds=holds, loses=loses,
                winner=g["white_name"] if rensa_black else g["black_name"])


def write(case, name):
    pos = case["pos"]
    black = " ".join(pos[0::2])
    white = " ".join(pos[1::2])
    tomove = "black" if len(pos) % 2 == 0 else "white"
    loses = ", ".join(f"{c} ({s})" for c, s in case["loses"])
    print(f"# {case['source']} game {case['game']} ply {len(pos)}, rule {case['rule']}, "
          f"size {case['size']}, {tomove} (Rensa) to move, winner {case['winner']}: "
          f"the game's {case['played']} let in {case['mate']}; lose: {loses}")
    print(f"case {name}")
    print(f"rule {case['rule']}")
    print(f"size {case['size']}")
    print(f"black {black}")
    print(f"white {white}")
    print(f"tomove {tomove}")
    print("kind avoid")
    print("answers " + " ".join(sorted(c for c, _ in case["holds"])))
    print("losing " + " ".join(sorted(c for c, _ in case["loses"])))
    print("end")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", default="target/release/pbrain-rensa")
    ap.add_argument("--find-ms", type=int, default=1000)
    ap.add_argument("--try-ms", type=lambda s: [int(x) for x in s.split(",")],
                    default=[200, 1000, 5000])
    ap.add_argument("--hold-ms", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--prefix", default="avoid")
    ap.add_argument("games", nargs="+")
    args = ap.parse_args()
    work = [(path.rsplit("/", 1)[-1], g, rensa)
            for path in args.games for g, rensa in losses.lost_games(path)]
    print("# Positions before the moves that lost Rensa its games, and the moves that hold.")
    print("# GENERATED FILE - do not edit.  Regenerate from the repository root with:")
    print("#   python3 tests/data/gen_tactics_avoid.py " + " ".join(sys.argv[1:]))
    print(f"# Judge: {args.engine}; loss found at {args.find_ms} ms, candidates at "
          f"{args.try_ms} ms, verdicts at {args.hold_ms} ms a search.")
    print("# kind avoid: 'answers' = the candidates after which the judge's search finds no")
    print("#   forced win for the opponent; 'losing' = those after which it finds one (the")
    print("#   game's move among them).")
    print("# Coordinates x,y are 0-based (x = column, y = row).")
    print()
    with ThreadPoolExecutor(args.jobs) as ex:
        cases = list(ex.map(lambda w: examine(args, *w), work))
    n = 0
    for case in cases:
        if case:
            n += 1
            write(case, f"{args.prefix}-{n:03}")
    print(f"# {n} cases from {len(work)} lost games", file=sys.stderr)


if __name__ == "__main__":
    main()
