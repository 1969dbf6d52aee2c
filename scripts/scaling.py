#!/usr/bin/env python3
"""How each engine scales with time: depth, branching, stability and solving over a fixed set of
positions, and what five times the time buys in self-play (issue 70, item 1).

Usage (from the repository root, after `cargo build --release`; Python 3.11, stdlib only):

    # 40 fixed positions at 1 s and 5 s a move, Rensa and Rapfi (about 10 minutes): 20 forced
    # wins and defences (time to solve), 20 positions before a lost game's mistake (open
    # positions: depth, EBF, best-move changes)
    python3 scripts/scaling.py positions --engine rensa=target/release/pbrain-rensa \
        --engine rapfi=../shared/anchors/pbrain-rapfi --turn-ms 1000,5000 --count 20 \
        --json scaling-positions.json tests/data/tactics_losses_r2_fs15.txt \
        tests/data/tactics_avoid.txt

    # each engine at 200 ms against itself at 1 s: 100 games each (hours at concurrency 1)
    python3 scripts/scaling.py selfplay --engine rensa=target/release/pbrain-rensa \
        --engine rapfi=../shared/anchors/pbrain-rapfi --games 100 --json scaling-selfplay.json

    # the summaries again, several files side by side (before/after a change)
    python3 scripts/scaling.py report before.json after.json

`positions` starts a fresh engine process per position and turn time (START, INFO rule,
timeout_turn, timeout_match 0, max_memory 367001600, thread_num 1, show_detail 2, then ABOUT,
whose answer is awaited so that set-up is not timed), sends BOARD ... DONE (own stones 1, the
opponent's 2, black and white alternating) and reads every line until the move. Positions are the
`case` blocks of the tactics files in tests/data/ (read by scripts/tactics_time.py), which carry
rule, size, stones and the answer moves. A case an engine refuses (Rapfi: caro rules, boards above
22) is counted as an error for that engine. `--count` and `--stride` pick cases from each file,
`--rules` by rule. The figures, per engine and turn time:

- proven: positions whose last iteration has a mate score (+M/-M), or with no iteration at all
  (Rensa's root probes decided). Depth, time to depth and EBF are over the other, open
  positions only: a proof stops Rensa's deepening and makes Rapfi's later iterations nearly free.
- used ms: the engine's own time for the move (Rensa's summary line, Rapfi's `Speed ...` line),
  else the wall time from DONE to the move.
- final depth: the last completed iteration's depth (Rensa counts from 1, Rapfi from 2).
- time to depth: per depth, the median over the open positions of the time at which the
  iteration of that depth completed, one that never completed it counting as never; so shown for
  the depths that more than half of them completed.
- EBF: effective branching factor, per position the geometric mean of nodes(d) / nodes(d-1)
  over the last `--ebf-last` completed iterations (node counts are the engines' cumulative
  counts, which converge to the same ratio as per-iteration counts and are steadier), then the
  geometric mean over positions. Needs node counts per iteration: Rensa prints them; Rapfi
  does with `INFO show_detail 2` (sent by default; its INFO TOTALNODES lines).
- best-move changes: per position, how often the first move of the principal variation changed
  from one iteration to the next (and from the last iteration to the move played); the mean over
  positions. "last change" is the median time of the last change, over positions with one.
- root probes (Rensa only): before iterative deepening Rensa runs its threat solvers at the root
  (VCF and VCT for itself, then against the opponent; src/search/root.rs) and prints nothing
  until they are done, so their time is that of its first `depth 1` line (which also holds the
  short depth-1 search), as scripts/probe_share.py measures it. A move the probes
  decide (a five, a block of two fives, a forced win) has no iteration line: its whole turn is
  probe time and it counts as "decided at root". The share is the sum of probe time over the sum
  of used time.
- solved / time to solve: for cases with answers, solved when the move played is an answer; the
  time to solve is the time of the first iteration from which the best move stays within the
  answers to the end (the used time when no iteration reported it); median over solved cases.

`selfplay` plays each engine at `--fast-ms` against itself at `--slow-ms` with the referee
(../shared/tools/referee.py): `--turn-ms` is the slow side's limit, the fast side gets its own
`INFO timeout_turn` through `--info2` (sent after the referee's), so the referee judges both at
the slow limit; the fast side's average and longest move show that it kept to its own. Openings
come from scripts/openings/freestyle-15-v2.txt, each played twice with colours swapped. The Elo
is slow minus fast, from the game pairs' (pentanomial) and the games' (trinomial) variances.
Beside the referee's mean depth of every move, each side's mean depth over the searches that
used 70 % of the turn or more and found no mate (from the referee's game logs): the depth a turn
buys. The plain mean misleads across engines: Rensa stops deepening once it finds a mate, Rapfi
goes on, so mates pull Rensa's mean down and Rapfi's up.
Default concurrency 1: on a 2-core machine two games at once would take the slow side's cores.

`--json FILE` saves the raw per-position and per-iteration data (and the lines of any search the
parser could not read, of every search with `--raw`: as [wall ms, line]) or the self-play games;
`report` recomputes every figure from such files.
"""

import argparse
import json
import math
import queue
import re
import shlex
import statistics as st
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from tactics_time import points, records  # noqa: E402  (the tactics files' reader)

REFEREE = HERE.parent.parent / "shared" / "tools" / "referee.py"
OPENINGS = HERE / "openings" / "freestyle-15-v2.txt"
MAX_MEMORY = 367001600


class EngineError(Exception):
    """The engine refused the set-up, crashed or did not answer in time."""


# ----------------------------------------------------------------------------- engine session

class Engine:
    """One engine process; its stdout lines arrive with their monotonic arrival times."""

    def __init__(self, cmd):
        self.proc = subprocess.Popen(shlex.split(cmd), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.strip()))
        self.lines.put((time.monotonic(), None))

    def send(self, *lines):
        try:
            self.proc.stdin.write("".join(s + "\n" for s in lines))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"cannot write to the engine: {e}") from e

    def line(self, deadline):
        """The next line as (time, text); EngineError at EOF or after the deadline."""
        try:
            at, text = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineError("no answer in time") from None
        if text is None:
            raise EngineError("the engine exited")
        return at, text

    def close(self):
        try:
            self.send("END")
            self.proc.wait(timeout=3)
        except (EngineError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


def board_lines(case):
    """BOARD lines for a case: the side to move's stones 1, the other's 2. A case with `moves`
    keeps their order; else black and white stones alternate, black first."""
    if "moves" in case:
        stones = points(case["moves"])
        colours = ["black" if i % 2 == 0 else "white" for i in range(len(stones))]
    else:
        black, white = points(case.get("black")), points(case.get("white"))
        stones, colours = [], []
        for i in range(max(len(black), len(white))):
            for colour, side in (("black", black), ("white", white)):
                if i < len(side):
                    stones.append(side[i])
                    colours.append(colour)
    return [f"{x},{y},{1 if c == case['tomove'] else 2}" for (x, y), c in zip(stones, colours)]


def set_up(eng, case, turn_ms, detail):
    """START and the INFOs, then ABOUT; returns ABOUT's answer. ERROR anywhere fails."""
    deadline = time.monotonic() + 30
    eng.send(f"START {case.get('size', 15)}")
    while not (text := eng.line(deadline)[1]).startswith("OK"):
        if text.startswith("ERROR"):
            raise EngineError(f"START: {text}")
    infos = [f"rule {case['rule']}", f"timeout_turn {turn_ms}", "timeout_match 0",
             f"max_memory {MAX_MEMORY}", "thread_num 1"] + (["show_detail 2"] if detail else [])
    eng.send(*(f"INFO {s}" for s in infos), "ABOUT")
    while not (text := eng.line(deadline)[1]).startswith("name="):
        if text.startswith("ERROR"):
            raise EngineError(f"set-up: {text}")
    return text


def search(eng, case, turn_ms):
    """Sends the position; returns ([(wall ms, line)...], move or None, wall ms)."""
    eng.send("BOARD", *board_lines(case), "DONE")
    start = time.monotonic()
    deadline = start + 2 * turn_ms / 1000 + 10
    lines = []
    while True:
        at, text = eng.line(deadline)
        wall = round((at - start) * 1000)
        if re.fullmatch(r"\d+,\d+", text):
            return lines, [int(v) for v in text.split(",")], wall
        lines.append((wall, text))
        if text.startswith(("ERROR", "UNKNOWN")):
            return lines, None, wall


def measure(cmd, case, turn_ms, detail, keep_raw=False):
    """One position in a fresh process: its parsed search, the move and the times."""
    out = {"case": case["case"], "rule": case["rule"], "size": int(case.get("size", 15)),
           "tomove": case["tomove"], "kind": case.get("kind"),
           "answers": [list(p) for p in points(case.get("answers"))]}
    eng = Engine(cmd)
    try:
        out["about"] = set_up(eng, case, turn_ms, detail)
        lines, move, wall = search(eng, case, turn_ms)
    except EngineError as e:
        out["error"] = str(e)
        return out
    finally:
        eng.close()
    out.update(parse_search([t for _, t in lines]), move=move, wall_ms=wall)
    if move is None:
        out["error"] = "no move"
    if keep_raw or move is None or not out["iterations"] and out.get("format") != "rensa":
        out["raw"] = lines
    return out


# ----------------------------------------------------------------------------- parsing

RENSA = re.compile(r"MESSAGE depth (\d+)-(\d+) ev (\S+) nodes (\d+) nps \d+ time (\d+) pv ?(.*)")
RAPFI_UCI = re.compile(r"MESSAGE depth (\d+)-(\d+) ev (\S+) n (\S+) n/ms \d+ tm (\d+) pv ?(.*)")
RAPFI_DEPTH = re.compile(
    r"MESSAGE Depth (\d+)-(\d+) \| Eval (\S+) \| Time (\S+) \| ?(.*)")
RAPFI_END = re.compile(
    r"MESSAGE Speed \S+ \| Depth \d+-\d+ \| Eval \S+ \| Node (\S+) \| Time (\S+)")
SUFFIX = {"": 1, "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}
TIME_UNIT = {"ms": 1, "s": 1000, "min": 60000, "h": 3600000}


def count_text(text):
    """'825K' -> 825000, '1.2M' -> 1200000, '74' -> 74."""
    m = re.fullmatch(r"([\d.]+)([KMGT]?)", text)
    return round(float(m.group(1)) * SUFFIX[m.group(2)]) if m else None


def time_text(text):
    """'970ms' -> 970, '1.5s' -> 1500."""
    m = re.fullmatch(r"([\d.]+)(ms|s|min|h)", text)
    return round(float(m.group(1)) * TIME_UNIT[m.group(2)]) if m else None


def move_text(text, upper):
    """The first move of a PV: 'h10' (Rensa: a-z then A-Z for columns 26+), 'H10' (Rapfi:
    A-Z) or '7,9'; x = column from 0, y = row from 0. None when there is none."""
    first = (text or "").split(" ")[0]
    if m := re.fullmatch(r"(\d+),(\d+)", first):
        return [int(m.group(1)), int(m.group(2))]
    if not (m := re.fullmatch(r"([A-Za-z])(\d+)", first)):
        return None
    c = m.group(1)
    x = ord(c.upper()) - 65 if upper else (ord(c) - 97 if c.islower() else ord(c) - 65 + 26)
    return [x, int(m.group(2)) - 1]


def iteration(depth, seldepth, score, nodes, ms, move):
    return {"depth": int(depth), "seldepth": int(seldepth), "score": score, "nodes": nodes,
            "time_ms": ms, "move": move}


def parse_lines(lines):
    """Every iteration report found, by format: {format: [iteration...]}, and Rapfi's final
    'Speed ... | Node N | Time T' as ('end', (nodes, ms))."""
    found = {"rensa": [], "detail": [], "uci": [], "normal": []}
    block, end = None, None
    for text in lines:
        if m := RENSA.fullmatch(text):
            d, sd, ev, n, ms, pv = m.groups()
            found["rensa"].append(iteration(d, sd, ev, int(n), int(ms), move_text(pv, False)))
        elif m := RAPFI_UCI.fullmatch(text):
            d, sd, ev, n, ms, pv = m.groups()
            found["uci"].append(iteration(d, sd, ev, count_text(n), int(ms), move_text(pv, True)))
        elif m := RAPFI_DEPTH.fullmatch(text):
            d, sd, ev, ms, pv = m.groups()
            found["normal"].append(iteration(d, sd, ev, None, time_text(ms), move_text(pv, True)))
        elif m := RAPFI_END.fullmatch(text):
            end = (count_text(m.group(1)), time_text(m.group(2)))
        elif text == "INFO PV 0":
            block = {}
        elif text == "INFO PV DONE" and block is not None:
            found["detail"].append(detail_iteration(block))
            block = None
        elif block is not None and text.startswith("INFO "):
            key, _, value = text[5:].partition(" ")
            block[key] = value
    return found, end


def detail_iteration(b):
    """An iteration from Rapfi's `INFO KEY VALUE` block (INFO show_detail 2)."""
    num = (lambda k: int(b[k]) if b.get(k, "").isdigit() else None)
    return iteration(b.get("DEPTH", 0), b.get("SELDEPTH", 0), b.get("EVAL"), num("TOTALNODES"),
                     num("TOTALTIME"), move_text(b.get("BESTLINE"), True))


def increasing(its):
    """The iterations whose depth exceeds every earlier one's (a report repeating a depth, as
    Rapfi's at a stop, is not a completed iteration)."""
    out = []
    for it in its:
        if not out or it["depth"] > out[-1]["depth"]:
            out.append(it)
    return out


def parse_search(lines):
    """The search's iterations and what the engine says of its turn. Rensa's last `depth` line
    is its summary of the move, not an iteration; one alone means the root probes decided."""
    found, end = parse_lines(lines)
    if found["rensa"]:
        its = found["rensa"]
        out = {"format": "rensa", "iterations": its[:-1], "used_ms": its[-1]["time_ms"],
               "final_nodes": its[-1]["nodes"]}
        out["probe_ms"] = its[0]["time_ms"]
        out["decided_at_root"] = len(its) == 1
        return out
    fmt = next((f for f in ("detail", "uci", "normal") if found[f]), None)
    its = increasing(found[fmt]) if fmt else []
    out = {"format": fmt, "iterations": its}
    if end:
        out["final_nodes"], out["used_ms"] = end
    return out


# ----------------------------------------------------------------------------- per position

def ebf(its, last):
    """Geometric mean of nodes(d)/nodes(d-1) over the last `last` iterations (a gap of k
    depths counts as k steps); None with fewer than 2 usable steps."""
    its = [it for it in its if it.get("nodes")]
    steps = list(zip(its, its[1:]))[-last:]
    logs, depth = 0.0, 0
    for a, b in steps:
        logs += math.log(b["nodes"] / a["nodes"])
        depth += b["depth"] - a["depth"]
    return math.exp(logs / depth) if len(steps) >= 2 and depth > 0 else None


def moves_seq(pos):
    """(time ms, best move) per iteration, then the move played at the used time."""
    seq = [(it["time_ms"], it["move"]) for it in pos["iterations"] if it["move"]]
    return seq + [(pos.get("used_ms") or pos.get("wall_ms"), pos.get("move"))]


def solve_ms(pos):
    """The time from which the best move stays within the answers, or None if the move
    played is not one."""
    answers = [list(a) for a in pos.get("answers", [])]
    seq = moves_seq(pos)
    if not answers or seq[-1][1] not in answers:
        return None
    i = len(seq) - 1
    while i > 0 and seq[i - 1][1] in answers:
        i -= 1
    return seq[i][0]


def metrics(pos, ebf_last):
    """The figures of one searched position."""
    its = pos["iterations"]
    seq = moves_seq(pos)
    changed = [seq[i][0] for i in range(1, len(seq)) if seq[i][1] != seq[i - 1][1]]
    m = {"used_ms": pos.get("used_ms") or pos.get("wall_ms"), "wall_ms": pos.get("wall_ms"),
         "depth": its[-1]["depth"] if its else None,
         "ttd": {it["depth"]: it["time_ms"] for it in its if it["time_ms"] is not None},
         "ebf": ebf(its, ebf_last), "changes": len(changed),
         "last_change_ms": changed[-1] if changed else None,
         "probe_ms": pos.get("probe_ms"), "decided_at_root": pos.get("decided_at_root"),
         "has_answers": bool(pos.get("answers")),
         "proven": not its or str(its[-1]["score"]).lstrip("+-").startswith("M")}
    m["solved"] = m["has_answers"] and pos.get("move") in pos["answers"]
    m["solve_ms"] = solve_ms(pos) if m["solved"] else None
    return m


# ----------------------------------------------------------------------------- summaries

def geomean(values):
    return math.exp(st.mean(math.log(v) for v in values)) if values else None


def median(values):
    return st.median(values) if values else None


def time_to_depth(ms):
    """{depth: median ms}, a position that did not complete the depth counting as never; the
    depths that more than half the positions completed."""
    out = {}
    for d in sorted({d for m in ms for d in m["ttd"]}):
        t = st.median([m["ttd"].get(d, math.inf) for m in ms])
        if t < math.inf:
            out[d] = t
    return out


def summarize(run, ebf_last):
    """The figures of one engine at one turn time over its positions."""
    ok = [p for p in run["positions"] if "error" not in p]
    ms = [metrics(p, ebf_last) for p in ok]
    open_ = [m for m in ms if not m["proven"]]
    depths = [m["depth"] for m in open_]
    probes = [m for m in ms if m["probe_ms"] is not None]
    asked = [m for m in ms if m["has_answers"]]
    solved = [m for m in asked if m["solved"]]
    used = sum(m["used_ms"] or 0 for m in probes)
    return {
        "positions": len(ok), "errors": len(run["positions"]) - len(ok),
        "proven": len(ms) - len(open_),
        "used_ms": st.mean(m["used_ms"] for m in ms) if ms else None,
        "depth_mean": st.mean(depths) if depths else None, "depth_median": median(depths),
        "ttd": time_to_depth(open_), "ebf": geomean([m["ebf"] for m in open_ if m["ebf"]]),
        "ebf_n": sum(1 for m in open_ if m["ebf"]),
        "changes": st.mean(m["changes"] for m in ms) if ms else None,
        "last_change_ms": median([m["last_change_ms"] for m in ms if m["last_change_ms"]]),
        "probe_ms": st.mean(m["probe_ms"] for m in probes) if probes else None,
        "probe_share": sum(m["probe_ms"] for m in probes) / used if probes and used else None,
        "decided_at_root": sum(1 for m in probes if m["decided_at_root"]) if probes else None,
        "solved": f"{len(solved)}/{len(asked)}" if asked else None,
        "solve_ms": median([m["solve_ms"] for m in solved if m["solve_ms"] is not None]),
    }


def fmt(v, spec="{:.0f}"):
    if v is None:
        return "-"
    return v if isinstance(v, str) else spec.format(v)


POSITION_ROWS = [
    ("positions (errors)", lambda s: f"{s['positions']} ({s['errors']})"),
    ("proven (mate score, none)", lambda s: fmt(s["proven"], "{:d}")),
    ("used ms, mean", lambda s: fmt(s["used_ms"])),
    ("final depth, mean", lambda s: fmt(s["depth_mean"], "{:.1f}")),
    ("final depth, median", lambda s: fmt(s["depth_median"], "{:g}")),
    ("EBF (positions)", lambda s: f"{fmt(s['ebf'], '{:.2f}')} ({s['ebf_n']})"),
    ("best-move changes, mean", lambda s: fmt(s["changes"], "{:.1f}")),
    ("last change, median ms", lambda s: fmt(s["last_change_ms"])),
    ("root probes, mean ms", lambda s: fmt(s["probe_ms"])),
    ("root probes, share", lambda s: fmt(s["probe_share"], "{:.1%}")),
    ("decided at root", lambda s: fmt(s["decided_at_root"], "{:d}")),
    ("solved", lambda s: fmt(s["solved"])),
    ("time to solve, median ms", lambda s: fmt(s["solve_ms"])),
]


def print_table(header, rows):
    """rows: [label, cell...]; the first column left-aligned, the others right."""
    widths = [max(len(str(r[i])) for r in [header] + rows) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                        for i, (c, w) in enumerate(zip(r, widths))))


def depth_rows(columns, all_depths):
    """Time-to-depth rows. Unless `all_depths`, from two depths before the first depth at which
    any column takes 5% of its turn (the earlier ones take a few ms in every engine)."""
    depths = sorted({d for _, s, _ in columns for d in s["ttd"]})
    if not depths:
        return []
    start = depths[0]
    if not all_depths:
        firsts = [min((d for d, t in s["ttd"].items() if t >= 0.05 * turn), default=None)
                  for _, s, turn in columns]
        firsts = [d for d in firsts if d is not None]
        start = max(depths[0], min(firsts) - 2) if firsts else depths[0]
    return [[f"depth {d}"] + [fmt(s["ttd"].get(d)) for _, s, _ in columns]
            for d in depths if d >= start]


def print_positions(columns, all_depths=False):
    """columns: [(label, summary, turn ms)]."""
    header = [""] + [label for label, _, _ in columns]
    print_table(header, [[name] + [f(s) for _, s, _ in columns] for name, f in POSITION_ROWS])
    rows = depth_rows(columns, all_depths)
    if rows:
        print("time to depth, median ms over the unproven positions (not completed = never):")
        print_table(header, rows)


# ----------------------------------------------------------------------------- positions

def engine_spec(text):
    name, sep, cmd = text.partition("=")
    if not sep or not name or not cmd:
        raise argparse.ArgumentTypeError(f"expected NAME=CMD, got {text!r}")
    return name, cmd


def load_cases(files, count, stride, rules):
    """Every `stride`th case of each file whose rule is one of `rules` (all if empty), at most
    `count` of each file (all if 0)."""
    out = []
    for path in files:
        cases = [c for c in records(path) if not rules or int(c["rule"]) in rules][::stride]
        out += cases[:count] if count else cases
    return out


def run_positions(args):
    cases = load_cases(args.files, args.count, args.stride, args.rules)
    runs = []
    for name, cmd in args.engine:
        for turn in args.turn_ms:
            run = {"engine": name, "cmd": cmd, "turn_ms": turn, "positions": []}
            for i, case in enumerate(cases):
                pos = measure(cmd, case, turn, not args.no_detail, args.raw)
                run["positions"].append(pos)
                note = pos.get("error") or f"move {pos['move']} in {pos['wall_ms']} ms"
                print(f"[{name} {turn} ms] {i + 1}/{len(cases)} {case['case']}: {note}",
                      file=sys.stderr, flush=True)
            runs.append(run)
    data = {"kind": "positions", "files": args.files, "count": len(cases),
            "ebf_last": args.ebf_last, "runs": runs}
    save(args.json, data)
    report_positions([("", data)], args.all_depths)


def report_positions(datas, all_depths):
    columns = []
    for tag, data in datas:
        for run in data["runs"]:
            s = summarize(run, data.get("ebf_last", 4))
            columns.append((f"{tag}{run['engine']} {run['turn_ms']}", s, run["turn_ms"]))
    files = sorted({f for _, d in datas for f in d["files"]})
    print(f"positions from {', '.join(files)}; columns: engine, turn ms")
    print_positions(columns, all_depths)


# ----------------------------------------------------------------------------- self-play

def pair_elo(games):
    """(score, Elo, pentanomial 95% interval, trinomial 95% interval) of the slow side from
    its game scores by opening pair; intervals from the sample variance, as the referee's."""
    flat = [s for pair in games.values() for s in pair]
    pairs = [sum(p) / 2 for p in games.values() if len(p) == 2]

    def interval(samples):
        if len(samples) < 2:
            return None
        mean = st.mean(samples)
        se = math.sqrt(st.pvariance(samples) / len(samples))
        return elo(mean - 1.96 * se), elo(mean + 1.96 * se)

    score = st.mean(flat) if flat else None
    return score, (elo(score) if flat else None), interval(pairs), interval(flat)


def elo(score):
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1) + 0.0  # + 0.0: no "-0"


def referee_cmd(args, name, cmd, out):
    """The referee's command line: engine1 the slow side, engine2 the fast one."""
    return [sys.executable, str(args.referee), "match", "--engine1", cmd, "--engine2", cmd,
            "--name1", f"{name}@{args.slow_ms}", "--name2", f"{name}@{args.fast_ms}",
            "--turn-ms", str(args.slow_ms), "--match-ms", "0", "--info", "thread_num 1",
            "--info2", f"timeout_turn {args.fast_ms}", "--max-memory", str(MAX_MEMORY),
            "--games", str(args.games), "--size", str(args.size), "--rule", str(args.rule),
            "--openings", str(args.openings), "--opening-format", "rel",
            "--concurrency", str(args.concurrency), "--seed", str(args.seed),
            "--pgn-out", str(out / "games.jsonl"), "--json-out", str(out / "summary.json"),
            "--log-dir", str(out / "logs")]


LOG_LINE = re.compile(r"\s*[\d.]+ (e[12]) < (.*)")


def log_searches(path):
    """Each side's searches in a referee game log: {'e1': [search...], 'e2': [...]}, a search
    being what parse_search makes of the lines that came before one of its moves."""
    lines = {"e1": [], "e2": []}
    out = {"e1": [], "e2": []}
    for row in path.read_text(errors="replace").splitlines():
        if not (m := LOG_LINE.fullmatch(row)):
            continue
        side, text = m.groups()
        if re.fullmatch(r"\d+,\d+", text):
            found = parse_search(lines[side])
            its = found.get("iterations") or []
            last = its[-1] if its else None
            out[side].append({"depth": last and last["depth"], "score": last and last["score"],
                              "used_ms": found.get("used_ms") or (last and last["time_ms"])})
            lines[side] = []
        else:
            lines[side].append(text)
    return out


def full_turn_depth(searches, turn_ms):
    """(count, mean depth) of the searches that used at least 70 % of the turn and found no
    mate: the depth a turn buys, which a plain mean hides (a mate found ends the deepening)."""
    depths = [x["depth"] for x in searches
              if x["depth"] and (x["used_ms"] or 0) >= 0.7 * turn_ms
              and "M" not in str(x["score"])]
    return len(depths), (st.mean(depths) if depths else None)


def run_selfplay(args):
    matches = []
    for name, cmd in args.engine:
        with tempfile.TemporaryDirectory(prefix="scaling-") as tmp:
            out = Path(tmp)
            argv = referee_cmd(args, name, cmd, out)
            print("$ " + shlex.join(argv), file=sys.stderr, flush=True)
            subprocess.run(argv, stdout=sys.stderr, check=False)
            games = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()
                     if line.strip()] if (out / "games.jsonl").exists() else []
            summary = json.loads((out / "summary.json").read_text()) \
                if (out / "summary.json").exists() else None
            searches = {"e1": [], "e2": []}
            for log in sorted((out / "logs").glob("*.log")):
                for side, found in log_searches(log).items():
                    searches[side] += found
        matches.append({"engine": name, "cmd": cmd, "slow_ms": args.slow_ms,
                        "fast_ms": args.fast_ms, "games": games, "referee": summary,
                        "searches": searches})
    data = {"kind": "selfplay", "matches": matches}
    save(args.json, data)
    report_selfplay([("", data)])


def slow_scores(match):
    """{pair: [slow side's score...]} from the referee's game records (engine1 is the slow
    side)."""
    pairs = {}
    for g in match["games"]:
        score = g.get("e1_score")
        if score is None:
            score = 0.5 if g.get("winner") is None else float(g["winner"] == "engine1")
        pairs.setdefault(g.get("pair", len(pairs)), []).append(score)
    return pairs


def report_selfplay(datas):
    print("self-play: the engine at the slow turn time against itself at the fast one; "
          "Elo = slow - fast, 95% intervals by pairs (pentanomial) and by games (trinomial)")
    for tag, data in datas:
        for m in data["matches"]:
            pairs = slow_scores(m)
            flat = [s for p in pairs.values() for s in p]
            w, d = flat.count(1.0), flat.count(0.5)
            score, e, pen, tri = pair_elo(pairs)
            span = (lambda iv: "[-]" if iv is None else
                    "[%s, %s]" % tuple(fmt(v, "{:+.0f}") for v in iv))
            print(f"{tag}{m['engine']} {m['slow_ms']} vs {m['fast_ms']} ms: {len(flat)} games, "
                  f"W-D-L {w}-{d}-{len(flat) - w - d}, score {fmt(score, '{:.1%}')}, "
                  f"Elo {fmt(e, '{:+.0f}')} {span(pen)} pairs, {span(tri)} games")
            print_sides(m)


def print_sides(m):
    """Each side's move times and forfeits, from the referee's summary."""
    ref = m.get("referee") or {}
    for label, side, ms in (("engine1", "e1", m["slow_ms"]), ("engine2", "e2", m["fast_ms"])):
        e = ref.get("engines", {}).get(label)
        if not e:
            continue
        lost = sum(e.get("forfeits", {}).values())
        n, depth = full_turn_depth(m.get("searches", {}).get(side, []), ms)
        full = (f"; over the {n} searches that used 70 % of the turn without a mate "
                f"{fmt(depth, '{:.1f}')}") if n else ""
        print(f"    at {ms} ms: move mean {fmt(e.get('avg_ms'))} ms, max {fmt(e.get('max_ms'))} "
              f"ms, depth mean {fmt(e.get('avg_depth'), '{:.1f}')}{full}; forfeits {lost}")


# ----------------------------------------------------------------------------- report, main

def save(path, data):
    if path:
        with open(path, "w") as f:
            json.dump(data, f, indent=1)
        print(f"raw data saved to {path}", file=sys.stderr)


def run_report(args):
    datas = []
    for i, path in enumerate(args.files):
        with open(path) as f:
            datas.append((f"{chr(65 + i)}:" if len(args.files) > 1 else "", json.load(f)))
    if len(args.files) > 1:
        for i, path in enumerate(args.files):
            print(f"{chr(65 + i)} = {path}")
    by_kind = {k: [d for d in datas if d[1].get("kind") == k] for k in ("positions", "selfplay")}
    if by_kind["positions"]:
        report_positions(by_kind["positions"], args.all_depths)
    if by_kind["selfplay"]:
        report_selfplay(by_kind["selfplay"])


def int_list(text):
    return [int(v) for v in text.split(",") if v]


def parser():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    pos = sub.add_parser("positions", help="depth, EBF, stability, probes, solving")
    pos.add_argument("files", nargs="+", help="tactics files (tests/data/tactics*.txt)")
    pos.add_argument("--turn-ms", type=int_list, default=[1000, 5000])
    pos.add_argument("--count", type=int, default=0, help="at most N cases a file (0: all)")
    pos.add_argument("--stride", type=int, default=1, help="every Nth case of a file")
    pos.add_argument("--rules", type=int_list, default=[], help="only these rules, e.g. 0,1,4")
    pos.add_argument("--ebf-last", type=int, default=4, help="iterations the EBF is taken over")
    pos.add_argument("--no-detail", action="store_true", help="do not send INFO show_detail 2")
    pos.add_argument("--all-depths", action="store_true", help="every depth in time to depth")
    pos.add_argument("--raw", action="store_true", help="keep every search's lines in --json")
    sp = sub.add_parser("selfplay", help="the engine at --fast-ms against itself at --slow-ms")
    sp.add_argument("--fast-ms", type=int, default=200)
    sp.add_argument("--slow-ms", type=int, default=1000)
    sp.add_argument("--games", type=int, default=100)
    sp.add_argument("--concurrency", type=int, default=1)
    sp.add_argument("--openings", type=Path, default=OPENINGS)
    sp.add_argument("--rule", type=int, default=0)
    sp.add_argument("--size", type=int, default=15)
    sp.add_argument("--seed", type=int, default=1)
    sp.add_argument("--referee", type=Path, default=REFEREE)
    for p in (pos, sp):
        p.add_argument("--engine", type=engine_spec, action="append", required=True,
                       metavar="NAME=CMD",
                       help="repeatable, e.g. rensa=target/release/pbrain-rensa")
        p.add_argument("--json", help="save the raw data here")
    rep = sub.add_parser("report", help="the summaries of saved --json files, side by side")
    rep.add_argument("files", nargs="+")
    rep.add_argument("--all-depths", action="store_true")
    return ap


def main():
    args = parser().parse_args()
    {"positions": run_positions, "selfplay": run_selfplay, "report": run_report}[args.command](args)


if __name__ == "__main__":
    main()
