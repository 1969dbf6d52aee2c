#!/usr/bin/env python3
"""Reads a Rensa self-play file (format: src/selfplay.rs) and prints what it holds; the
reader a trainer starts from. Standard library only.

    python3 scripts/selfplay_read.py FILE [--show N]
"""

import argparse
import collections
import struct
import sys

RULES = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro-exact"}


def records(data):
    """Yields (game, rule, width, height, side, result, score, stones) for every whole block."""
    if data[:4] != b"RNSP" or struct.unpack_from("<H", data, 4)[0] != 1:
        raise ValueError("not a version 1 Rensa self-play file")
    at = 8
    while at + 6 <= len(data):
        game, n = struct.unpack_from("<IH", data, at)
        pos = at + 6
        block = []
        for _ in range(n):
            if pos + 10 > len(data):
                return
            rule, w, h, side, result, _, score, count = struct.unpack_from("<BBBBbBhH", data, pos)
            pos += 10
            if pos + 2 * count > len(data):
                return
            stones = [(data[pos + 2 * i] & 0x7F, data[pos + 2 * i + 1], data[pos + 2 * i] >> 7)
                      for i in range(count)]
            pos += 2 * count
            block.append((game, rule, w, h, side, result, score, stones))
        yield from block
        at = pos


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file")
    ap.add_argument("--show", type=int, default=0, help="print the first N records")
    a = ap.parse_args()
    data = open(a.file, "rb").read()
    games = set()
    by_rule = collections.Counter()
    results = collections.Counter()
    stones = 0
    n = 0
    for r in records(data):
        game, rule, w, h, side, result, score, st = r
        if n < a.show:
            print(f"game {game} {RULES.get(rule, rule)} {w}x{h} side {'bw'[side]} result {result:+d} "
                  f"score {score} stones {len(st)}")
        games.add(game)
        by_rule[(RULES.get(rule, rule), w)] += 1
        results[result] += 1
        stones += len(st)
        n += 1
    print(f"{len(data)} bytes, {len(games)} games, {n} positions, "
          f"{stones / max(n, 1):.1f} stones a position")
    for (rule, w), c in sorted(by_rule.items()):
        print(f"  {rule:<10} {w}x{w}: {c}")
    print(f"  results for the side to move: win {results[1]}, draw {results[0]}, loss {results[-1]}")


if __name__ == "__main__":
    sys.exit(main())
