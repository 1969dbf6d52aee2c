#!/usr/bin/env python3
"""Games under a game clock, judged from the clock's side (issue 68): plays a match through
c-gomoku-cli and reads every move's time from its SGF, so a time loss is found even where
c-gomoku-cli's own tolerance (3 s) would let it pass.

    python3 scripts/clock_check.py --engine target/release/pbrain-rensa \\
        --opponent ../shared/anchors/pbrain-rapfi --tc 24/1 --rule 0 --size 20 --games 100 \\
        --openings scripts/openings/freestyle-15-v2.txt --srand 6801 --out /tmp/clock

    python3 scripts/clock_check.py --summarise /tmp/clock/*.sgf --tc 24/1

--tc is c-gomoku-cli's MATCH/TURN in seconds (fastgame's 120 s / 5 s scaled is 24/1; 180 s /
30 s is 18/3; 1000 s / 300 s is 10/3). --cpu N pins both engines to CPU N (taskset);
--threads and --opponent-threads are sent as `INFO thread_num` (default 1). Per engine it prints: moves over the turn, games
over the match clock, time forfeits by c-gomoku-cli's verdict, the longest move, the most of
the clock one game used and the least left, the median share of the clock used in games
of 30 moves or more each, and the mean time of its moves by move number (where it spends
its clock). Exit status 1 when any engine lost on time by either count.
Standard library only; c-gomoku-cli from ../shared/anchors or --cli.
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CLI = os.path.join(HERE, "..", "..", "shared", "anchors", "c-gomoku-cli")


def clean_openings(path, dest):
    """c-gomoku-cli reads bare lines: comments and blank lines go."""
    with open(path) as f, open(dest, "w") as out:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                out.write(line + "\n")


def wrapper(path, cmd, cpu):
    """A script that starts `cmd` pinned to `cpu` (when given); c-gomoku-cli runs it."""
    with open(path, "w") as f:
        f.write("#!/bin/sh\n")
        pin = f"taskset -c {cpu} " if cpu is not None else ""
        f.write(f'exec {pin}{os.path.abspath(cmd)} "$@"\n')
    os.chmod(path, 0o755)
    return path


def run_match(a):
    os.makedirs(a.out, exist_ok=True)
    openings = os.path.join(a.out, "openings.txt")
    clean_openings(a.openings, openings)
    eng = wrapper(os.path.join(a.out, "engine.sh"), a.engine, a.cpu)
    opp = wrapper(os.path.join(a.out, "opponent.sh"), a.opponent, a.cpu)
    sgf = os.path.join(a.out, f"{a.name}.sgf")
    cmd = [a.cli, "-each", f"tc={a.tc}"]
    cmd += ["-engine", f"name={a.name}", f"cmd={eng}", f"thread={a.threads}"]
    cmd += ["-engine", f"name={a.opponent_name}", f"cmd={opp}", f"thread={a.opponent_threads}"]
    cmd += ["-rule", str(a.rule), "-boardsize", str(a.size), "-games", str(a.games),
            "-repeat", "-concurrency", str(a.concurrency), "-drawafter", str(a.size * a.size),
            "-openings", f"file={openings}", "order=random", f"srand={a.srand}", "-sgf", sgf]
    log = os.path.join(a.out, f"{a.name}.log")
    with open(log, "w") as f:
        subprocess.run(cmd, cwd=a.out, stdout=f, stderr=subprocess.STDOUT, check=False)
    return [sgf]


GAME = re.compile(r"\(;FF\[4\](.*?)\)\s*(?=\(|$)", re.S)
PROP = re.compile(r"([A-Z]{2})\[([^\]]*)\]")
MOVE = re.compile(r";([BW])\[[a-z]*\]C\[([^\]]*)\]")


def games(paths):
    for p in paths:
        with open(p) as f:
            text = f.read()
        for m in GAME.finditer(text):
            body = m.group(1)
            head = dict(PROP.findall(body.split(";", 1)[0]))
            moves = [(c, int(t[:-2])) for c, t in MOVE.findall(body) if t.endswith("ms")]
            yield head, moves


def summarise(paths, tc):
    match_s, turn_s = (tc.split("/") + [None])[:2]
    match_ms = int(float(match_s) * 1000)
    turn_ms = int(float(turn_s) * 1000) if turn_s else match_ms
    per = {}
    results = {}
    for head, moves in games(paths):
        names = {"B": head.get("PB", "?"), "W": head.get("PW", "?")}
        reason = head.get("TE", "")
        winner = {"B+1": "B", "W+1": "W"}.get(head.get("RE", ""), None)
        for colour in "BW":
            name = names[colour]
            s = per.setdefault(name, {"over_turn": 0, "over_match": 0, "forfeits": 0,
                                      "start_failures": 0, "longest": 0, "most": 0,
                                      "shares": [], "games": 0, "by_move": {}})
            times = [t for c, t in moves if c == colour]
            for k, t in enumerate(times):
                s["by_move"].setdefault(k, []).append(t)
            used = sum(times)
            s["games"] += 1
            s["over_turn"] += sum(1 for t in times if t > turn_ms)
            s["over_match"] += used > match_ms
            s["longest"] = max(s["longest"], max(times, default=0))
            s["most"] = max(s["most"], used)
            if len(times) >= 30:
                s["shares"].append(used / match_ms)
            lost = winner is not None and winner != colour
            if lost and "time" in reason.lower():
                # c-gomoku-cli ends a game whose START either engine failed to answer with a
                # time forfeit of the side to move, before any engine move: not a clock loss
                if not moves:
                    s["start_failures"] += 1
                else:
                    s["forfeits"] += 1
            r = results.setdefault(name, [0, 0, 0])
            if winner is None:
                r[2] += 1
            elif winner == colour:
                r[0] += 1
            else:
                r[1] += 1
    bad = False
    print(f"clock {tc}: match {match_ms} ms, turn {turn_ms} ms")
    for name, s in per.items():
        w, l, d = results[name]
        share = statistics.median(s["shares"]) if s["shares"] else float("nan")
        print(f"{name}: {s['games']} games {w}-{l}-{d}; time forfeits {s['forfeits']} "
              f"(and {s['start_failures']} charged before any move, see below), "
              f"moves over the turn {s['over_turn']}, games over the clock {s['over_match']}; "
              f"longest move {s['longest']} ms, most used in a game {s['most']} ms "
              f"(least left {match_ms - s['most']} ms), median share used in long games "
              f"{share:.0%} of {len(s['shares'])}")
        print(f"  {name}'s mean ms by its move number (moves): {profile(s['by_move'])}")
        bad |= s["forfeits"] > 0 or s["over_turn"] > 0 or s["over_match"] > 0
    return bad


# the engine's own moves, counted from its first after the opening stones
BANDS = [(0, 4), (5, 9), (10, 14), (15, 19), (20, 24), (25, 29), (30, 39), (40, 59), (60, 10**6)]


def profile(by_move):
    """Where an engine spends its clock: the mean time of its moves in bands of its move
    number, as `0-4 853 (200)  5-9 600 (199) ...`."""
    parts = []
    for lo, hi in BANDS:
        ts = [t for k in range(lo, min(hi, max(by_move, default=0)) + 1) for t in by_move.get(k, [])]
        if ts:
            label = f"{lo}-{hi}" if hi < 10**6 else f"{lo}+"
            parts.append(f"{label} {sum(ts) // len(ts)} ({len(ts)})")
    return "  ".join(parts)


def start_failures(logs):
    """c-gomoku-cli's log lines where an engine answered START with an error: such a game
    ends before any move with a time forfeit of whichever side was to move."""
    found = {}
    for path in logs:
        if not os.path.exists(path):
            continue
        with open(path, errors="replace") as f:
            for line in f:
                m = re.search(r"engine (\S+) output error: (.*)", line)
                if m:
                    found.setdefault(m.group(1), []).append(m.group(2).strip())
    for name, errors in found.items():
        print(f"{name} answered with an error {len(errors)} time(s): {sorted(set(errors))}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine")
    p.add_argument("--opponent")
    p.add_argument("--name", default="Rensa")
    p.add_argument("--opponent-name", default="Opponent")
    p.add_argument("--tc", required=True)
    p.add_argument("--rule", type=int, default=0)
    p.add_argument("--size", type=int, default=15)
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--concurrency", type=int, default=2)
    p.add_argument("--openings", default=os.path.join(HERE, "openings", "freestyle-15-v2.txt"))
    p.add_argument("--srand", type=int, default=1)
    p.add_argument("--cpu", type=int)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--opponent-threads", type=int, default=1)
    p.add_argument("--cli", default=DEFAULT_CLI)
    p.add_argument("--out")
    p.add_argument("--summarise", nargs="+", metavar="SGF")
    a = p.parse_args()
    if a.summarise:
        paths = a.summarise
    else:
        if not (a.engine and a.opponent):
            p.error("--engine and --opponent, or --summarise")
        a.out = a.out or tempfile.mkdtemp(prefix="clock-")
        paths = run_match(a)
    bad = summarise(paths, a.tc)
    start_failures([p[:-4] + ".log" for p in paths])
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
