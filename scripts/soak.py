#!/usr/bin/env python3
"""soak.py - play Rensa against itself (or another engine) for thousands of games over every
rule and board size, and report every fault by kind.

Standard library only, and self-contained: it carries its own judge (freestyle, standard,
renju with fouls, caro, exact-five caro), written apart from Rensa's rules code so that the
two check each other.

  python3 scripts/soak.py run --games 2000 --jobs 1 --out soak.jsonl
  python3 scripts/soak.py summary soak.jsonl
  python3 scripts/soak.py replay soak.jsonl 17 [--engine target/release/pbrain-rensa]
  python3 scripts/soak.py selftest     (the judge against 401 referee-judged renju positions)

Fault kinds (a game may have several):
  crash          the engine exited, closed its output, or exited non-zero after END
  hang           no move within the turn limit + --hang-ms, or no exit within 2 s of END
  time_turn      a move took longer than timeout_turn + --tolerance-ms
  time_match     the engine's moves together took longer than timeout_match + tolerance
  illegal        a move off the board, on a stone, or unparsable
  forbidden      a renju foul by black (black loses)
  five_missed    the mover could make a winning five and played something else
  five_claimed   the engine's last MESSAGE said +M1 (this move wins) and it does not
  five_unclaimed the move wins and the engine's last MESSAGE did not say +M1
  error          an ERROR/UNKNOWN reply to a valid command (except a judged 'no legal move')
  stray          an output line that is neither a move nor MESSAGE/DEBUG (nor OK after START)
  memory         peak resident size (VmHWM) above INFO max_memory
Times are measured from writing the command to reading the move, so on a loaded machine
they include scheduling delay: hence the tolerance.
"""

import argparse
import json
import os
import queue
import random
import re
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed

RULES = {0: "freestyle", 1: "standard", 4: "renju", 8: "caro", 9: "caro-exact"}
DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
EMPTY, BLACK, WHITE = 0, 1, 2
MIB = 1 << 20
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_ENGINE = os.path.join(REPO, "target", "release", "pbrain-rensa")

# ---------------------------------------------------------------------------------------------
# The judge
# ---------------------------------------------------------------------------------------------


class Grid:
    """A w x h board: cells[x][y] holds EMPTY, BLACK or WHITE; off the board reads as -1."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.cells = [[EMPTY] * h for _ in range(w)]
        self.stones = 0

    def at(self, x, y):
        if 0 <= x < self.w and 0 <= y < self.h:
            return self.cells[x][y]
        return -1

    def put(self, x, y, c):
        self.stones += (c != EMPTY) - (self.cells[x][y] != EMPTY)
        self.cells[x][y] = c

    def full(self):
        return self.stones == self.w * self.h

    def span(self, x, y, dx, dy):
        """The run of the colour on (x, y) along (dx, dy): offsets (lo, hi) of its ends."""
        c = self.at(x, y)
        lo = hi = 0
        while self.at(x + (lo - 1) * dx, y + (lo - 1) * dy) == c:
            lo -= 1
        while self.at(x + (hi + 1) * dx, y + (hi + 1) * dy) == c:
            hi += 1
        return lo, hi


def wins(g, x, y, rule):
    """Whether the stone just placed on (x, y) makes a winning line under `rule`."""
    c = g.at(x, y)
    opp = WHITE if c == BLACK else BLACK
    for dx, dy in DIRS:
        lo, hi = g.span(x, y, dx, dy)
        n = hi - lo + 1
        if n < 5:
            continue
        # caro: the cells just past both ends hold opponent stones (the edge never blocks)
        closed = (g.at(x + (lo - 1) * dx, y + (lo - 1) * dy) == opp
                  and g.at(x + (hi + 1) * dx, y + (hi + 1) * dy) == opp)
        if rule == 0 and n >= 5:
            return True
        if rule == 1 and n == 5:
            return True
        if rule == 4 and (n == 5 or (c == WHITE and n > 5)):
            return True
        if rule == 8 and (n > 5 or not closed):
            return True
        if rule == 9 and n == 5 and not closed:
            return True
    return False


def _exact_five_spots(g, x, y, dx, dy):
    """With black on (x, y): offsets k along (dx, dy) of empty cells where one more black
    stone gives a run of exactly five that still contains (x, y)."""
    spots = []
    for k in range(-4, 5):
        qx, qy = x + k * dx, y + k * dy
        if k == 0 or g.at(qx, qy) != EMPTY:
            continue
        g.cells[qx][qy] = BLACK
        lo, hi = g.span(qx, qy, dx, dy)
        g.cells[qx][qy] = EMPTY
        if hi - lo == 4 and lo <= -k <= hi:
            spots.append(k)
    return spots


def _four_count(spots):
    # an open four _XXXX_ has two five spots five apart and is one four; any other two
    # spots in one line (X.XXX.X, XX.XX.XX) are two fours
    if len(spots) == 2 and abs(spots[0] - spots[1]) == 5:
        return 1
    return len(spots)


def _makes_exact_five(g, x, y):
    for dx, dy in DIRS:
        lo, hi = g.span(x, y, dx, dy)
        if hi - lo == 4:
            return True
    return False


def _real_three(g, x, y, dx, dy):
    """With black on (x, y), and no four in this line: whether one more black stone in the
    line makes an open four through (x, y), on a cell that makes no five and is no foul."""
    for k in range(-4, 5):
        qx, qy = x + k * dx, y + k * dy
        if k == 0 or g.at(qx, qy) != EMPTY:
            continue
        g.cells[qx][qy] = BLACK
        spots = _exact_five_spots(g, x, y, dx, dy)
        open_four = len(spots) == 2 and abs(spots[0] - spots[1]) == 5
        five = open_four and _makes_exact_five(g, qx, qy)
        g.cells[qx][qy] = EMPTY
        if open_four and not five and foul(g, qx, qy) is None:
            return True
    return False


def foul(g, x, y):
    """Renju: why a black stone on the empty cell (x, y) is forbidden, or None. An exact
    five is never a foul, whatever else the move makes."""
    g.cells[x][y] = BLACK
    try:
        runs = [g.span(x, y, dx, dy) for dx, dy in DIRS]
        lengths = [hi - lo + 1 for lo, hi in runs]
        if 5 in lengths:
            return None
        if max(lengths) > 5:
            return "overline"
        fours = [_four_count(_exact_five_spots(g, x, y, dx, dy)) for dx, dy in DIRS]
        if sum(fours) >= 2:
            return "double-four"
        threes = sum(1 for (dx, dy), f in zip(DIRS, fours)
                     if f == 0 and _real_three(g, x, y, dx, dy))
        if threes >= 2:
            return "double-three"
        return None
    finally:
        g.cells[x][y] = EMPTY


def winning_cells(g, color, rule):
    """Every empty cell where `color` wins at once. A five needs a stone of its own next to
    the new one, so only cells beside one are tried."""
    found = []
    for x in range(g.w):
        for y in range(g.h):
            if g.cells[x][y] != EMPTY:
                continue
            if not any(g.at(x + dx, y + dy) == color
                       for dx in (-1, 0, 1) for dy in (-1, 0, 1) if dx or dy):
                continue
            g.cells[x][y] = color
            w = wins(g, x, y, rule)
            g.cells[x][y] = EMPTY
            if w:
                found.append((x, y))
    return found


def has_legal_cell(g, color, rule):
    for x in range(g.w):
        for y in range(g.h):
            if g.cells[x][y] == EMPTY and not (rule == 4 and color == BLACK and foul(g, x, y)):
                return True
    return False


# ---------------------------------------------------------------------------------------------
# An engine process
# ---------------------------------------------------------------------------------------------

MOVE_RE = re.compile(r"^(\d+),(\d+)$")
SEARCH_TIME_RE = re.compile(r"^MESSAGE depth .* time (\d+) pv")
CONTROL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


class Engine:
    """One engine process: lines out with their arrival times; stderr kept (its tail)."""

    def __init__(self, cmd):
        self.cmd = cmd
        self.proc = subprocess.Popen(
            [os.path.abspath(cmd)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=os.path.dirname(os.path.abspath(cmd)) or ".")
        self.lines = queue.Queue()
        self.err_tail = []
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self):
        for raw in self.proc.stdout:
            self.lines.put((time.monotonic(), raw.decode("utf-8", "replace").rstrip("\r\n")))
        self.lines.put((time.monotonic(), None))

    def _read_err(self):
        for raw in self.proc.stderr:
            self.err_tail = (self.err_tail + [raw.decode("utf-8", "replace").rstrip()])[-10:]

    def send(self, *lines):
        """Writes lines; returns the time just before the write (an answer can come before
        the write call returns), or None when the pipe is gone."""
        t = time.monotonic()
        try:
            self.proc.stdin.write("".join(line + "\n" for line in lines).encode())
            self.proc.stdin.flush()
        except OSError:
            return None
        return t

    def read(self, deadline):
        """The next line as (time, text); text None at end of output; None at the deadline."""
        try:
            return self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            return None

    def peak_rss_kib(self):
        try:
            with open(f"/proc/{self.proc.pid}/status") as f:
                for line in f:
                    if line.startswith("VmHWM:"):
                        return int(line.split()[1])
        except OSError:
            pass
        return None

    def finish(self):
        """Sends END; returns (peak RSS KiB, exit code or None when it did not exit)."""
        rss = self.peak_rss_kib()
        self.send("END")
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            code = None
        return rss, code


# ---------------------------------------------------------------------------------------------
# One game
# ---------------------------------------------------------------------------------------------


def game_settings(seed, index, args):
    """Everything about game `index` comes from (seed, index) alone, so a game is the same
    whatever --games or --jobs."""
    r = random.Random(f"{seed}-{index}")
    rule = r.choice(sorted(RULES))
    opponent = bool(args.opponent) and r.random() < args.opponent_share
    if opponent:
        lo, hi = args.opponent_sizes
        rule = r.choice(args.opponent_rules)
        w = h = r.randint(lo, hi)
        if args.opponent_rect and r.random() < 0.5:
            h = r.randint(lo, hi)
    else:
        w = r.randint(5, 32)
        h = w if r.random() < 0.5 else r.randint(5, 32)
    turn = r.randint(args.turn_ms[0], args.turn_ms[1])
    match = r.choice([0, 0, turn * 15, turn * 30, turn * 60])
    mem = r.choice([40 * MIB, 40 * MIB, 64 * MIB]) if r.random() < args.memory_share else 0
    # a balanced-ish random opening: 0 to 4 stones, alternating, near the centre
    cx, cy, rad = w // 2, h // 2, 1 if min(w, h) < 9 else 2
    near = [(x, y) for x in range(cx - rad, cx + rad + 1) for y in range(cy - rad, cy + rad + 1)]
    opening = r.sample(near, r.randint(0, 4))
    engines = [args.engine, args.engine]
    if opponent:
        engines[r.randint(0, 1)] = args.opponent
    return {"game": index, "seed": f"{seed}-{index}", "rule": rule, "w": w, "h": h,
            "rect": w != h or (not opponent and r.random() < 0.2), "turn_ms": turn,
            "match_ms": match, "max_memory": mem, "opening": [list(p) for p in opening],
            "engines": engines}


class Game:
    def __init__(self, s, tolerance_ms, hang_ms):
        self.s = s
        self.tol = tolerance_ms
        self.hang = hang_ms
        self.g = Grid(s["w"], s["h"])
        self.moves, self.times, self.search_ms, self.faults = [], [], [], []
        self.used = [0, 0]
        self.result, self.reason = None, None
        self.engines = []

    def fault(self, kind, side, detail, move=None):
        """Records a fault at move number `move` (0-based, opening included; default: the
        move being asked for)."""
        self.faults.append({"kind": kind, "side": "bw"[side], "engine": self.s["engines"][side],
                            "move": len(self.moves) if move is None else move,
                            "detail": detail[:500]})

    def end(self, result, reason):
        if self.result is None:
            self.result, self.reason = result, reason

    def setup(self, side):
        s = self.s
        e = self.engines[side]
        start = f"RECTSTART {s['w']},{s['h']}" if s["rect"] else f"START {s['w']}"
        t0 = e.send(f"INFO rule {s['rule']}", f"INFO timeout_turn {s['turn_ms']}",
                    f"INFO timeout_match {s['match_ms']}",
                    f"INFO max_memory {s['max_memory']}", start)
        deadline = time.monotonic() + 10
        got = e.read(deadline) if t0 else (0, None)
        while got and got[1] is not None and got[1].startswith("MESSAGE"):
            got = e.read(deadline)
        if got is None or got[1] != "OK":
            self.fault("crash" if got and got[1] is None else "error", side,
                       f"{start} got {got and got[1]!r}")
            return False
        return True

    def request(self, side, first):
        """Asks `side` for its move; returns its lines up to the move, or None on a fault."""
        s, e = self.s, self.engines[side]
        cmds = []
        if s["match_ms"]:
            cmds.append(f"INFO time_left {int(s['match_ms'] - self.used[side])}")
        if first and self.moves:
            me = BLACK if side == 0 else WHITE
            cmds.append("BOARD")
            cmds += [f"{x},{y},{1 if self.g.at(x, y) == me else 2}" for x, y in self.moves]
            cmds.append("DONE")
        elif first:
            cmds.append("BEGIN")
        else:
            cmds.append("TURN {},{}".format(*self.moves[-1]))
        t0 = e.send(*cmds)
        if t0 is None:
            self.fault("crash", side, "input pipe closed")
            return None
        deadline = t0 + (s["turn_ms"] + self.hang) / 1000
        lines = []
        while True:
            got = e.read(deadline)
            if got is None:
                self.fault("hang", side, f"no move after {s['turn_ms'] + self.hang} ms")
                return None
            t, line = got
            if line is None:
                self.fault("crash", side, f"output closed, exit {e.proc.poll()}, stderr "
                           + " | ".join(e.err_tail))
                return None
            if t < t0 and not line.startswith(("MESSAGE", "DEBUG")):
                # printed after the last answer, before this command: a second answer
                self.fault("stray", side, f"unasked line {line!r} before the command")
                continue
            lines.append(line)
            if CONTROL_RE.search(line):
                self.fault("stray", side, f"control character in {line!r}")
            if MOVE_RE.match(line):
                return lines, round((t - t0) * 1000, 1)
            if line.startswith(("ERROR", "UNKNOWN")):
                return lines, round((t - t0) * 1000, 1)
            if line.startswith("MESSAGE INFO"):
                # every INFO we send is valid: one refused is a fault (ours or the engine's)
                self.fault("error", side, line)
            if not line.startswith(("MESSAGE", "DEBUG")):
                self.fault("stray", side, f"unexpected line {line!r}")

    def judge_move(self, side, lines, ms):
        s, g = self.s, self.g
        color = BLACK if side == 0 else WHITE
        self.times.append(ms)
        # the engine's own view, from its last summary line (Rensa's format), to tell a slow
        # search from a slow machine
        own = [m.group(1) for m in map(SEARCH_TIME_RE.search, lines) if m]
        self.search_ms.append(int(own[-1]) if own else None)
        if ms > s["turn_ms"] + self.tol:
            with open("/proc/loadavg") as f:
                load = f.read().split()[0]
            self.fault("time_turn", side, f"{ms} ms for a {s['turn_ms']} ms turn; the engine "
                       f"reports {own[-1] if own else '?'} ms of search; load average {load}")
        self.used[side] += ms
        if s["match_ms"] and self.used[side] > s["match_ms"] + self.tol and not any(
                f["kind"] == "time_match" and f["side"] == "bw"[side] for f in self.faults):
            self.fault("time_match", side, f"{self.used[side]:.0f} ms used of {s['match_ms']}")
        last = lines[-1]
        m = MOVE_RE.match(last)
        if not m:
            if not has_legal_cell(g, color, s["rule"]):
                return self.end("draw", "no legal move")
            self.fault("error", side, last)
            return self.end("bw"[1 - side], "error reply")
        x, y = int(m.group(1)), int(m.group(2))
        if g.at(x, y) != EMPTY:
            self.fault("illegal", side, f"{x},{y} is {'off the board' if g.at(x, y) < 0 else 'taken'}")
            return self.end("bw"[1 - side], "illegal move")
        can_win = winning_cells(g, color, s["rule"])
        bad = foul(g, x, y) if s["rule"] == 4 and color == BLACK else None
        g.put(x, y, color)
        self.moves.append([x, y])
        won = wins(g, x, y, s["rule"])
        if can_win and not won:
            self.fault("five_missed", side, f"played {x},{y}, wins were {can_win[:5]}",
                       len(self.moves) - 1)
        summary = [ln for ln in lines if ln.startswith("MESSAGE depth ")]
        if summary and s["engines"][side] == s.get("rensa", s["engines"][0]):
            claimed = " ev +M1 " in summary[-1]
            if claimed and not won:
                self.fault("five_claimed", side, f"{x},{y}: {summary[-1]}", len(self.moves) - 1)
            if won and not claimed:
                self.fault("five_unclaimed", side, f"{x},{y}: {summary[-1]}",
                           len(self.moves) - 1)
        if won:
            return self.end("bw"[side], "five")
        if bad:
            self.fault("forbidden", side, f"{x},{y} is a {bad}", len(self.moves) - 1)
            return self.end("w", bad)
        if g.full():
            return self.end("draw", "board full")

    def play(self):
        s = self.s
        try:
            self.engines = [Engine(s["engines"][0]), Engine(s["engines"][1])]
        except OSError as e:
            self.fault("crash", 0, f"cannot start: {e}")
            return self.record(None)
        try:
            for i, (x, y) in enumerate(s["opening"]):
                self.g.put(x, y, BLACK if i % 2 == 0 else WHITE)
                self.moves.append([x, y])
            if self.setup(0) and self.setup(1):
                first = [True, True]
                side = len(self.moves) % 2
                while self.result is None:
                    got = self.request(side, first[side])
                    first[side] = False
                    if got is None:
                        self.end("bw"[1 - side], self.faults[-1]["kind"])
                        break
                    self.judge_move(side, *got)
                    side ^= 1
            else:
                self.end("aborted", "setup failed")
        finally:
            rss = self.shutdown()
        return self.record(rss)

    def shutdown(self):
        rss = []
        for side, e in enumerate(self.engines):
            crashed = any(f["kind"] in ("crash", "hang") and f["side"] == "bw"[side]
                          for f in self.faults)
            peak, code = e.finish()
            rss.append(peak)
            if code is None:
                self.fault("hang", side, "still running 2 s after END")
            elif code != 0 and not crashed:
                self.fault("crash", side, f"exit status {code} after END; stderr "
                           + " | ".join(e.err_tail))
            mem = self.s["max_memory"]
            if mem and peak and peak * 1024 > mem:
                self.fault("memory", side, f"peak RSS {peak} KiB over max_memory {mem >> 10} KiB")
        return rss

    def record(self, rss):
        return dict(self.s, moves=self.moves, times_ms=self.times, search_ms=self.search_ms,
                    result=self.result,
                    reason=self.reason, faults=self.faults, peak_rss_kib=rss)


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


def progress(done, total, faults, t0):
    el = time.monotonic() - t0
    eta = el / done * (total - done) if done else 0
    bar = "#" * (done * 30 // total)
    sys.stderr.write(f"\r[{bar:<30}] {done}/{total} games  faults {faults}  "
                     f"{el / 60:5.1f} min  eta {eta / 60:5.1f} min ")
    sys.stderr.flush()


def cmd_run(args):
    if not os.access(args.engine, os.X_OK):
        sys.exit(f"no engine at {args.engine}: build it with cargo build --release")
    start = args.first
    t0 = time.monotonic()
    faults = done = 0
    mode = "a" if args.append else "w"
    with open(args.out, mode) as out, ThreadPoolExecutor(args.jobs) as pool:
        todo = [pool.submit(play_one, game_settings(args.seed, i, args), args)
                for i in range(start, start + args.games)]
        for fut in as_completed(todo):
            if fut.cancelled():
                continue
            rec = fut.result()
            out.write(json.dumps(rec) + "\n")
            out.flush()
            done += 1
            faults += len(rec["faults"])
            progress(done, args.games, faults, t0)
            if args.deadline and time.time() > args.deadline:
                for f in todo:
                    f.cancel()
    sys.stderr.write("\n")
    summary([json.loads(line) for line in open(args.out)])


def play_one(s, args):
    s["rensa"] = args.engine
    t = time.monotonic()
    rec = Game(s, args.tolerance_ms, args.hang_ms).play()
    rec["wall_s"] = round(time.monotonic() - t, 2)
    return rec


def percentile(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(len(v) * p))] if v else 0


def summary(recs):
    """A markdown report: games by rule and size, faults by kind, times, memory."""
    print(f"games: {len(recs)}, moves: {sum(len(r['times_ms']) for r in recs)}")
    print("\n| rule | games | square | rect | sizes | black | white | draw | other |")
    print("|---|---|---|---|---|---|---|---|---|")
    for rule, name in RULES.items():
        rs = [r for r in recs if r["rule"] == rule]
        if not rs:
            continue
        res = [r["result"] for r in rs]
        sizes = sorted({f"{r['w']}x{r['h']}" for r in rs})
        print(f"| {name} ({rule}) | {len(rs)} | {sum(r['w'] == r['h'] for r in rs)} | "
              f"{sum(r['w'] != r['h'] for r in rs)} | {len(sizes)} distinct | {res.count('b')} | "
              f"{res.count('w')} | {res.count('draw')} | "
              f"{len(res) - res.count('b') - res.count('w') - res.count('draw')} |")
    kinds = ["crash", "hang", "time_turn", "time_match", "illegal", "forbidden", "five_missed",
             "five_claimed", "five_unclaimed", "error", "stray", "memory"]

    def ours(r, f):
        return f.get("engine", r.get("rensa")) == r.get("rensa")

    allf = [(r, f) for r in recs for f in r["faults"]]
    opponent_games = sum(any(e != r.get("rensa") for e in r["engines"]) for r in recs)
    print(f"\nfaults of the engine under test (the opponent's, in {opponent_games} games against "
          "it, apart):")
    print("\n| fault | count | games | opponent's |")
    print("|---|---|---|---|")
    for k in kinds + sorted({f["kind"] for _, f in allf} - set(kinds)):
        mine = [(r, f) for r, f in allf if f["kind"] == k and ours(r, f)]
        games = sorted({r["game"] for r, _ in mine})
        theirs = sum(f["kind"] == k and not ours(r, f) for r, f in allf)
        print(f"| {k} | {len(mine)} | {', '.join(map(str, games[:10]))} | {theirs} |")
    buckets = [(5, 9), (10, 15), (16, 22), (23, 32)]
    print("\n| rule | " + " | ".join(f"{a}-{b}" for a, b in buckets) + " | rect |")
    print("|---" * (len(buckets) + 2) + "|")
    for rule, name in RULES.items():
        rs = [r for r in recs if r["rule"] == rule]
        cells = [sum(a <= max(r["w"], r["h"]) <= b for r in rs) for a, b in buckets]
        print(f"| {name} | " + " | ".join(map(str, cells))
              + f" | {sum(r['w'] != r['h'] for r in rs)} |")
    print("\n(games by the longer side of the board; rect: games on non-square boards)")

    def mover_is_ours(r, i):
        # times_ms[i] is the move after the opening's stones; black (side 0) moves first
        return r["engines"][(len(r["opening"]) + i) % 2] == r.get("rensa", r["engines"][0])

    for label, want in (("engine under test", True), ("opponent", False)):
        over = [t - r["turn_ms"] for r in recs for i, t in enumerate(r["times_ms"])
                if mover_is_ours(r, i) == want]
        frac = [t / r["turn_ms"] for r in recs for i, t in enumerate(r["times_ms"])
                if mover_is_ours(r, i) == want]
        if not over:
            continue
        print(f"\n{label}: move time (command written to move read) minus timeout_turn, ms: max "
              f"{max(over):.1f}, p99.9 {percentile(over, 0.999):.1f}, p99 "
              f"{percentile(over, 0.99):.1f}, p50 {percentile(over, 0.5):.1f}; as a fraction of "
              f"the turn: max {max(frac):.2f}, p99 {percentile(frac, 0.99):.2f}; moves over "
              f"the limit: {sum(o > 0 for o in over)} of {len(over)}")
    own = [m - r["turn_ms"] for r in recs for m in r.get("search_ms", []) if m is not None]
    if own:
        print(f"search time the engine reports minus timeout_turn, ms: max {max(own)}, "
              f"p99 {percentile(own, 0.99)}, p50 {percentile(own, 0.5)} ({len(own)} moves)")
    for label, want in (("engine under test", True), ("opponent", False)):
        print(f"\n{label}:")
        for mem in sorted({r["max_memory"] for r in recs}):
            peaks = [p for r in recs if r["max_memory"] == mem
                     for side, p in enumerate(r["peak_rss_kib"] or [])
                     if p and (r["engines"][side] == r.get("rensa", r["engines"][0])) == want]
            if not peaks:
                continue
            label2 = f"{mem >> 20} MiB" if mem else "none"
            over = sum(mem and p * 1024 > mem for p in peaks)
            print(f"max_memory {label2}: {len(peaks)} processes, peak RSS max "
                  f"{max(peaks) / 1024:.1f} MiB, p50 {percentile(peaks, 0.5) / 1024:.1f} MiB, "
                  f"over the limit {over}")


def cmd_summary(args):
    summary([json.loads(line) for line in open(args.file)])


def show(g):
    rows = []
    for y in range(g.h):
        rows.append(f"{y:2d} " + " ".join(".XO"[g.at(x, y)] for x in range(g.w)))
    return "\n".join(rows)


def cmd_replay(args):
    recs = [json.loads(line) for line in open(args.file)]
    rec = next((r for r in recs if r["game"] == args.n), None)
    if rec is None:
        sys.exit(f"no game {args.n} in {args.file}")
    print(json.dumps({k: v for k, v in rec.items() if k not in ("moves", "times_ms")}))
    g = Grid(rec["w"], rec["h"])
    k0 = len(rec["opening"])
    at = args.at if args.at is not None else min(
        [f["move"] for f in rec["faults"]] or [len(rec["moves"])])
    for i, (x, y) in enumerate(rec["moves"][:at]):
        ms = rec["times_ms"][i - k0] if i >= k0 else "opening"
        print(f"{i + 1:3d}. {'XO'[i % 2]} {x},{y}  {ms}")
        g.put(x, y, BLACK if i % 2 == 0 else WHITE)
    print(show(g))
    if args.engine:
        # the position before move `at`, to the engine, as a manager would send it
        side = at % 2
        me = BLACK if side == 0 else WHITE
        e = Engine(args.engine)
        start = f"RECTSTART {rec['w']},{rec['h']}" if rec["rect"] else f"START {rec['w']}"
        cmds = [f"INFO rule {rec['rule']}", f"INFO timeout_turn {rec['turn_ms']}",
                f"INFO max_memory {rec['max_memory']}", start, "BOARD"]
        cmds += [f"{x},{y},{1 if g.at(x, y) == me else 2}" for x, y in rec["moves"][:at]]
        e.send(*cmds, "DONE")
        print("\n".join("> " + c for c in cmds + ["DONE"]))
        while True:
            got = e.read(time.monotonic() + rec["turn_ms"] / 1000 + 5)
            if got is None or got[1] is None:
                print("(no more output)")
                break
            print("<", got[1])
            if MOVE_RE.match(got[1]) or got[1].startswith("ERROR"):
                break
        e.finish()


def line_case(rule, cells, x):
    """Judges a one-row position: `cells` a string over '.XO' (x along the row)."""
    g = Grid(len(cells), 5)
    for i, ch in enumerate(cells):
        if ch != ".":
            g.put(i, 2, BLACK if ch == "X" else WHITE)
    return wins(g, x, 2, rule)


def cmd_selftest(args):
    """Checks the judge: win lines under each rule, and every renju forbidden point of the
    401 positions in tests/data/renju_forbidden.txt (recorded from the Gomocup referee)."""
    checks = [
        (0, "XXXXX..", 0, True), (0, "XXXXXX.", 0, True), (1, "XXXXXX.", 0, False),
        (1, ".XXXXX.", 1, True), (4, "XXXXXX..", 0, False), (4, "OOOOOO..", 0, True),
        (8, "OXXXXXO.", 1, False), (8, "XXXXX...", 0, True), (8, "OXXXXXXO", 1, True),
        (9, "OXXXXXO.", 1, False), (9, ".XXXXXO.", 1, True), (9, ".XXXXXX.", 1, False),
    ]
    bad = 0
    for rule, cells, x, want in checks:
        if line_case(rule, cells, x) != want:
            bad += 1
            print(f"rule {rule} {cells}: expected {want}")
    cases = 0
    path = os.path.join(REPO, "tests", "data", "renju_forbidden.txt")
    case = {}
    for raw in open(path):
        word, *rest = raw.split() or [""]
        if word in ("black", "white"):
            case[word] = [tuple(map(int, t.split(","))) for t in rest]
        elif word == "size":
            case["n"] = int(rest[0])
        elif word == "forbidden":
            case["f"] = {tuple(map(int, t.split(":")[0].split(","))) for t in rest}
        elif word == "end":
            n = case["n"]
            g = Grid(n, n)
            for c, key in ((BLACK, "black"), (WHITE, "white")):
                for x, y in case[key]:
                    g.put(x, y, c)
            got = {(x, y) for x in range(n) for y in range(n)
                   if g.at(x, y) == EMPTY and foul(g, x, y)}
            cases += 1
            if got != case["f"]:
                bad += 1
                print(f"renju position {cases}: forbidden {sorted(got)}, expected {sorted(case['f'])}")
            case = {}
    print(f"{len(checks)} win lines, {cases} renju positions: {bad} wrong")
    sys.exit(1 if bad else 0)


def size_range(s):
    lo, _, hi = s.partition("-")
    return int(lo), int(hi or lo)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 1)[1])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play games and save them as JSON lines")
    r.add_argument("--engine", default=DEFAULT_ENGINE, help="the engine under test")
    r.add_argument("--games", type=int, default=100)
    r.add_argument("--first", type=int, default=0, help="number of the first game")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                   help="games at once (default: cores)")
    r.add_argument("--seed", default="1")
    r.add_argument("--out", default="soak.jsonl")
    r.add_argument("--append", action="store_true", help="add to --out instead of replacing it")
    r.add_argument("--turn-ms", type=size_range, default=(50, 100), help="range, e.g. 50-100")
    r.add_argument("--tolerance-ms", type=float, default=100,
                   help="time over the turn limit before a move counts as a time loss")
    r.add_argument("--hang-ms", type=int, default=3000,
                   help="time past the turn limit after which an engine counts as hung")
    r.add_argument("--memory-share", type=float, default=0.25,
                   help="share of games with a small INFO max_memory (40 or 64 MiB)")
    r.add_argument("--deadline", type=float, help="Unix time after which no game starts")
    r.add_argument("--opponent", help="another engine for some games, e.g. "
                   "../shared/anchors/pbrain-rapfi")
    r.add_argument("--opponent-share", type=float, default=0.25)
    r.add_argument("--opponent-rules", type=lambda s: [int(x) for x in s.split(",")],
                   default=[0, 1, 4], help="rules the opponent plays")
    r.add_argument("--opponent-sizes", type=size_range, default=(5, 22))
    r.add_argument("--opponent-rect", action="store_true", help="the opponent takes RECTSTART")
    r.set_defaults(func=cmd_run)
    s = sub.add_parser("summary", help="the report for a saved run")
    s.add_argument("file")
    s.set_defaults(func=cmd_summary)
    rp = sub.add_parser("replay", help="show game N of a saved run, and optionally ask an "
                        "engine for the move at a fault")
    rp.add_argument("file")
    rp.add_argument("n", type=int)
    rp.add_argument("--at", type=int, help="moves to replay (default: up to the first fault)")
    rp.add_argument("--engine", help="send the position to this engine and show its answer")
    rp.set_defaults(func=cmd_replay)
    st = sub.add_parser("selftest", help="check the judge against known positions")
    st.set_defaults(func=cmd_selftest)
    args = p.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
