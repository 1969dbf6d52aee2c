#!/usr/bin/env python3
"""Game records from c-gomoku-cli's SGF files as referee-style JSON lines, for label_games and
the trainers (examples/common/games.rs reads rule, size, moves, opening_plies, result, pair).
Each game is its own pair (c-gomoku-cli's SGF does not say which games share an opening), so
the train/validation split may part an opening's two games.

    python3 scripts/tune/sgf_to_jsonl.py games.sgf... > games.jsonl

Moves are written x,y from the SGF's two letters (a transposed board is the same game to
every rule). Games that did not end on the board (time forfeits, a failed START) are left out;
the opening stones are the moves commented "opening move".
"""
import json
import re
import sys


def games(text):
    for g in re.split(r"\(;", text)[1:]:
        tags = (r"RU\[(\d+)\]", r"SZ\[(\d+)\]", r"RE\[([^\]]*)\]")
        rule, size, result = (re.search(t, g) for t in tags)
        if not (rule and size and result):
            continue
        ending = re.search(r"TE\[([^\]]*)\]", g)
        on_board = ("five connection", "draw")
        if ending and not any(w in ending.group(1).lower() for w in on_board):
            continue
        moves = re.findall(r";[BW]\[([a-z])([a-z])\](?:C\[([^\]]*)\])?", g)
        r = result.group(1)
        yield {
            "size": int(size.group(1)),
            "rule": int(rule.group(1)),
            "opening_plies": sum(1 for *_, c in moves if c == "opening move"),
            "moves": " ".join(f"{ord(a) - 97},{ord(b) - 97}" for a, b, _ in moves),
            "result": "1-0" if r.startswith("B+") else "0-1" if r.startswith("W+") else "1/2-1/2",
        }


def main():
    pair = 0
    for path in sys.argv[1:]:
        with open(path) as f:
            for g in games(f.read()):
                pair += 1
                print(json.dumps({"pair": pair, **g}))


if __name__ == "__main__":
    main()
