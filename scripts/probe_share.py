#!/usr/bin/env python3
"""How much of a timed move goes to the root probes, measured through the real binary.

Usage (from the repository root, after `cargo build --release`):

    python3 scripts/probe_share.py [--engine target/release/pbrain-rensa] [--turn-ms 200] \
        [--rule 0] [--size 15] [--every 7] [--count 200] GAMES.sgf...

Positions are taken from c-gomoku-cli's SGF records (every `--every`-th move from the 8th, of
the games that ended on the board, read by `scripts/tune/sgf_to_jsonl.py`) and searched one
after another by one engine process, as a manager would ask: BOARD ... DONE at `INFO
timeout_turn`. (One process, unlike `tactics_time.py`: a process's first search also builds
its pattern tables, which would count as probe time.) Before iterative deepening the search
runs its root probes (VCF and VCT for itself, then for the opponent; `src/search/root.rs`);
its first `depth 1` line comes when they are done. For the moves that searched 100 ms or more
this prints the mean and 90th percentile of that line's time, the probes' share of the nodes,
and the mean depth reached. Python 3 stdlib only.
"""

import argparse
import re
import statistics as st
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "tune"))
from sgf_to_jsonl import games  # noqa: E402  (the SGF reader the trainers' data comes from)


def positions(paths, every, count):
    """Move lists ((x, y) in playing order, black first) cut from the SGF games."""
    out = []
    for path in paths:
        with open(path) as f:
            for game in games(f.read()):
                moves = [tuple(map(int, m.split(","))) for m in game["moves"].split()]
                out += [moves[:k] for k in range(8, len(moves) - 2, every)]
    return out[:count]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default="target/release/pbrain-rensa")
    ap.add_argument("--turn-ms", type=int, default=200)
    ap.add_argument("--rule", type=int, default=0)
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("games", nargs="+")
    a = ap.parse_args()
    eng = subprocess.Popen([a.engine], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True, bufsize=1)

    def send(text):
        eng.stdin.write(text + "\n")
        eng.stdin.flush()

    send(f"START {a.size}")
    if eng.stdout.readline().strip() != "OK":
        raise SystemExit("the engine did not answer START")
    for line in (f"INFO timeout_turn {a.turn_ms}", "INFO timeout_match 0", f"INFO rule {a.rule}"):
        send(line)
    first_ms, depths, probe_nodes, all_nodes = [], [], 0, 0
    for moves in positions(a.games, a.every, a.count):
        # BOARD's third field: 1 for the side to move (the engine), 2 for the other
        board = [f"{x},{y},{1 if i % 2 == len(moves) % 2 else 2}"
                 for i, (x, y) in enumerate(moves)]
        send("\n".join(["BOARD", *board, "DONE"]))
        lines = []
        while not re.fullmatch(r"\d+,\d+", line := eng.stdout.readline().strip()):
            if not line and eng.poll() is not None:
                raise SystemExit("the engine exited")
            if line.startswith("MESSAGE depth"):
                lines.append(line)
        if not lines or not lines[0].split()[2].startswith("1-"):
            continue
        first, last = (re.search(r"nodes (\d+) .*time (\d+)", s) for s in (lines[0], lines[-1]))
        if int(last.group(2)) < 100:
            continue
        first_ms.append(int(first.group(2)))
        probe_nodes += int(first.group(1))
        all_nodes += int(last.group(1))
        depths.append(int(lines[-1].split()[2].split("-")[0]))
    send("END")
    if not first_ms:
        raise SystemExit("no position searched 100 ms or more")
    first_ms.sort()
    print(f"{len(first_ms)} searched moves: probes took {st.mean(first_ms):.1f} ms on average "
          f"(90th percentile {first_ms[int(len(first_ms) * 0.9)]} ms), "
          f"{probe_nodes / all_nodes:.1%} of the nodes; mean depth {st.mean(depths):.1f}")


if __name__ == "__main__":
    main()
