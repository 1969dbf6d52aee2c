#!/usr/bin/env python3
"""Replays Yixin-Board's command sequences (as its main.c sends them) to one or more engines
and prints what each answers, side by side, with what Yixin-Board makes of each line.

    python3 scripts/yixin_replay.py ENGINE [ENGINE ...] [--cwd DIR ...] [--timeout S]

Each engine runs in a fresh process per sequence. Lines Yixin-Board does not recognise by
prefix (OK, MESSAGE, DETAIL, DEBUG, ERROR, UNKNOWN, FORBID) are taken as the engine's move:
they are marked `<- MOVE`. Standard library only.
"""

import argparse
import os
import subprocess
import sys
import threading
import time

PREFIXES = ("OK", "MESSAGE", "DETAIL", "DEBUG", "ERROR", "UNKNOWN", "FORBID")


def startup(cols, rows, rule, threads=1):
    return [
        "info show_detail 1",
        "yxshowinfo",
        f"START {cols} {rows}",
        "INFO max_node 10000",
        "INFO timeout_match 100000000",
        "INFO time_left 100000000",
        "INFO timeout_turn 2000000",
        f"INFO max_depth {cols * rows}",
        "INFO time_increment 0",
        "INFO caution_factor 1",
        f"INFO thread_num {threads}",
        "INFO hash_size 524288",
        "INFO pondering 0",
        "INFO vcthread 0",
        f"INFO rule {rule}",
    ]


def stones_block(cols, rows, stones, kind):
    n = len(stones)
    lines = [f"start {cols} {rows}", kind]
    for i, (r, c) in enumerate(stones):
        lines.append(f"{r},{c},{1 if n % 2 == i % 2 else 2}")
    return lines + ["done"]


def soosorv(step, stones):
    # the step, the stones as row,col in game order, done (main.c: no colours, no start)
    return [step] + [f"{r},{c}" for r, c in stones] + ["done"]


def think(cols, rows, stones):
    return ["INFO time_left 100000000", "yxhashclear"] + stones_block(cols, rows, stones, "board")


SEQUENCES = [
    ("start-up", startup(15, 15, 0)),
    ("think, empty board", startup(15, 15, 0) + think(15, 15, [])),
    ("think after 3 stones", startup(15, 15, 0) + think(15, 15, [(7, 7), (8, 8), (7, 8)])),
    ("rectangular 15 cols x 20 rows", startup(15, 20, 0) + think(15, 20, [(18, 2), (17, 3)])),
    (
        "renju yxboard + yxshowforbid",
        startup(15, 15, 2)
        + stones_block(15, 15, [(7, 7), (0, 0), (7, 8), (0, 2), (8, 7), (0, 4), (9, 7), (14, 14)], "yxboard")
        + ["yxshowforbid"],
    ),
    (
        "yxblock then think",
        startup(15, 15, 0) + ["yxblock", "7,7", "6,6", "done"] + think(15, 15, []) + ["yxblockreset"],
    ),
    ("yxnbest 3", startup(15, 15, 0) + ["info nbestsym 0"] + stones_block(15, 15, [(7, 7), (8, 8)], "yxboard") + ["yxnbest 3"]),
    ("yxbalanceone 0", startup(15, 15, 0) + stones_block(15, 15, [(7, 7)], "yxboard") + ["yxbalanceone 0"]),
    ("yxbalancetwo 0", startup(15, 15, 0) + stones_block(15, 15, [(7, 7)], "yxboard") + ["yxbalancetwo 0"]),
    ("yxswap2step1", startup(15, 15, 1) + ["yxswap2step1"]),
    ("yxswap2step2", startup(15, 15, 1) + stones_block(15, 15, [(7, 7), (7, 8), (9, 9)], "yxboard") + ["yxswap2step2"]),
    (
        "yxswap2step3",
        startup(15, 15, 1) + stones_block(15, 15, [(7, 7), (7, 8), (9, 9), (8, 6), (6, 9)], "yxboard") + ["yxswap2step3"],
    ),
    ("yxsoosorvstep1", startup(15, 15, 2) + ["yxsoosorvstep1"]),
    ("yxsoosorvstep2", startup(15, 15, 2) + soosorv("yxsoosorvstep2", [(7, 7), (7, 6), (8, 8)])),
    ("yxsoosorvstep3", startup(15, 15, 2) + soosorv("yxsoosorvstep3", [(7, 7), (7, 6), (8, 8)])),
    ("yxsoosorvstep4 3", startup(15, 15, 2) + soosorv("yxsoosorvstep4 3", [(7, 7), (7, 6), (8, 8), (6, 8)])),
    ("yxsoosorvstep5 3", startup(15, 15, 2) + soosorv("yxsoosorvstep5 3", [(7, 7), (7, 6), (8, 8), (6, 8)])),
    (
        "yxsoosorvstep6",
        startup(15, 15, 2)
        + soosorv("yxsoosorvstep6", [(7, 7), (7, 6), (8, 8), (6, 8), (9, 9), (6, 6), (9, 7)]),
    ),
    ("yxsearchdefend", startup(15, 15, 0) + stones_block(15, 15, [(7, 7), (8, 8), (7, 8)], "yxboard") + ["yxsearchdefend"]),
    (
        "unlimited think + yxstop",
        startup(15, 15, 0) + ["INFO max_node -1"] + think(15, 15, [(7, 7), (8, 8)]) + ["@sleep 1", "yxstop"],
    ),
    ("2 threads think", startup(15, 15, 0, threads=2) + think(15, 15, [(7, 7), (8, 8)])),
]


def run(engine, cwd, lines, timeout):
    p = subprocess.Popen(
        [engine], cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL, text=True, bufsize=1,
    )
    out = []
    reader = threading.Thread(target=lambda: out.extend(p.stdout), daemon=True)
    reader.start()
    t0 = time.time()
    try:
        for l in lines:
            if l.startswith("@sleep "):
                time.sleep(float(l.split()[1]))
                continue
            p.stdin.write(l + "\n")
            p.stdin.flush()
        # wait for output to settle
        last = -1
        while time.time() - t0 < timeout:
            time.sleep(0.5)
            if len(out) == last:
                break
            last = len(out)
        p.stdin.write("END\n")
        p.stdin.flush()
    except BrokenPipeError:
        pass
    try:
        p.wait(timeout=3)
    except subprocess.TimeoutExpired:
        p.kill()
    reader.join(timeout=1)
    return [l.rstrip("\r\n") for l in out if l.strip()]


def yixin_reads(line):
    up = line.upper()
    return "" if up.startswith(PREFIXES) else "  <- MOVE"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("engines", nargs="+")
    ap.add_argument("--cwd", action="append", default=[], help="working directory per engine, in order")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--only", help="run only sequences whose name contains this")
    a = ap.parse_args()
    for name, lines in SEQUENCES:
        if a.only and a.only not in name:
            continue
        print(f"## {name}")
        for i, e in enumerate(a.engines):
            cwd = a.cwd[i] if i < len(a.cwd) else None
            replies = run(os.path.abspath(e), cwd, lines, a.timeout)
            print(f"### {os.path.basename(e)}")
            shown = [l for l in replies if not l.startswith("MESSAGE depth") and not l.startswith("MESSAGE REALTIME")]
            realtime = len(replies) - len(shown)
            # the first lines, and the last two (where the move is)
            head = shown if len(shown) <= 12 else shown[:10]
            for l in head:
                print(f"    {l[:110]}{yixin_reads(l)}")
            if len(shown) > 12:
                print(f"    ... {len(shown) - 12} more")
                for l in shown[-2:]:
                    print(f"    {l[:110]}{yixin_reads(l)}")
            if realtime:
                print(f"    ({realtime} MESSAGE depth/REALTIME lines)")
        print()
        sys.stdout.flush()


if __name__ == "__main__":
    main()
