#!/usr/bin/env python3
"""gen_openings.py - balanced opening files for engine-vs-engine matches.

Generates seeded random openings near the centre of a 15x15 board and keeps the
ones a pbrain engine judges roughly level, so that a match between two engine
versions (each opening played twice, colours swapped, by
/work/shared/tools/referee.py --openings FILE) measures strength rather than
opening luck.  Python 3 stdlib only; deterministic for a given engine and flags.

  python3 scripts/openings/gen_openings.py --engine target/release/pbrain-rensa --rule 0 \
      --count 250 --window 100 --depth 13 --prefilter 600 > scripts/openings/freestyle-15-v2.txt
  python3 scripts/openings/gen_openings.py --engine target/release/pbrain-rensa --rule 4 \
      --count 250 --window 100 --depth 13 --prefilter 600 > scripts/openings/renju-15-v2.txt

(the v2 files; scripts/openings/README.md has the v1 commands and why v2 replaced them)

Method
  1. Candidates: with random.Random(--seed), choose a stone count from --stones
     (default 3,4,5) and place that many stones, alternating colours starting with
     black, uniformly on free points within --radius (Chebyshev distance, default 3)
     of the centre.  Reject a candidate if a side has >= 3 stones in a 5-point window
     of a line that holds no enemy stone (the referee's own 'early threat' test), or if
     it equals an earlier candidate under one of the 8 symmetries of the square
     (stone order is ignored: a position is its set of black and white stones).
  2. Scoring: for each candidate a fresh engine process gets START, INFO rule,
     INFO timeout_turn/timeout_match (huge), INFO max_depth D and the position as
     BOARD ... DONE; then INFO max_depth D+1 and the same BOARD again (the hash
     table of earlier searches in the process is kept, as in iterative deepening).  The score of
     the last 'MESSAGE depth A-B ev S ...' line of each search is taken, turned to
     black's point of view (the engine reports it for the side to move) and the two
     are averaged: the evaluation can swing by a few hundred between odd and
     even depths, and averaging two consecutive depths damps that.
     With --prefilter P (default 200) the same process first searches at D-2 and
     D-1 (before D and D+1) and stops there if that average is beyond +-P (cheap: most random
     openings are clearly black's, and these shallow averages track the deep
     ones closely); this only skips candidates, it never admits one.
  3. Keep: no mate score (+Mn / -Mn) at any depth, and |average| <= --window.
     Candidates are taken in generation order until --count are kept (or
     --max-candidates have been tried).

Output (stdout): a '#' header (method, command, window, score distribution), then
one opening per line, moves as x,y offsets from the centre (referee's default
--opening-format rel), first stone black's, followed by a '#' comment with the
two depth scores and the average (the referee ignores '#' and what follows).
Progress and timing go to stderr only, so the output depends only on the flags
and the engine.
"""
import argparse
import collections
import random
import re
import shlex
import subprocess
import sys
import threading
import time

DIRS = ((1, 0), (0, 1), (1, 1), (1, -1))
SYMS = (
    lambda x, y: (x, y), lambda x, y: (-x, y), lambda x, y: (x, -y), lambda x, y: (-x, -y),
    lambda x, y: (y, x), lambda x, y: (-y, x), lambda x, y: (y, -x), lambda x, y: (-y, -x),
)
SUMMARY_RE = re.compile(r"^MESSAGE\s+depth\s+(\d+)(?:-\d+)?\s+ev\s+(\S+)")
MOVE_RE = re.compile(r"^\s*-?\d+\s*,\s*-?\d+\s*$")
RULE_NAMES = {0: "freestyle", 1: "standard", 4: "renju"}


# ----------------------------------------------------------------------------- candidates
def has_threat(stones, k=3):
    """stones: dict (x, y) -> colour (1 black, 2 white), relative coordinates.
    True if a side has >= k stones in a 5-point window of a line with no enemy stone."""
    for (x, y) in stones:
        for dx, dy in DIRS:
            for s in range(-4, 1):
                cells = [stones.get((x + (s + i) * dx, y + (s + i) * dy), 0) for i in range(5)]
                for c in (1, 2):
                    if cells.count(c) >= k and cells.count(3 - c) == 0:
                        return True
    return False


def canonical(moves):
    """Key of a position up to the 8 symmetries of the square (centre fixed)."""
    keys = []
    for f in SYMS:
        t = [f(x, y) for x, y in moves]
        keys.append((tuple(sorted(t[0::2])), tuple(sorted(t[1::2]))))
    return min(keys)


def candidates(seed, stone_counts, radius):
    """Endless deterministic stream of distinct, threat-free openings (relative moves)."""
    rng, seen = random.Random(seed), set()
    while True:
        n = rng.choice(stone_counts)
        moves, stones = [], {}
        while len(moves) < n:
            p = (rng.randint(-radius, radius), rng.randint(-radius, radius))
            if p not in stones:
                stones[p] = 1 + len(moves) % 2
                moves.append(p)
        if has_threat(stones):
            continue
        key = canonical(moves)
        if key in seen:
            continue
        seen.add(key)
        yield moves


# ----------------------------------------------------------------------------- engine
class EngineError(Exception):
    pass


def search(engine_cmd, size, rule, moves, depths, timeout, stop=None):
    """Run one fresh engine on the position, one search per depth in `depths` (same
    process, so later searches find the earlier ones' hash entries); return
    [(depth, score_text), ...], score_text as the engine printed it (side to move's
    view).  stop(results_so_far) -> True ends early (then fewer results)."""
    c = size // 2
    board = ["BOARD"]
    for k, (x, y) in enumerate(moves):
        board.append("%d,%d,%d" % (x + c, y + c, 1 if k % 2 == len(moves) % 2 else 2))
    board.append("DONE")
    p = subprocess.Popen(engine_cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
    watchdog = threading.Timer(timeout, p.kill)     # a hung engine ends the readline below
    watchdog.start()

    def send(lines):
        p.stdin.write("".join(l + "\n" for l in lines))
        p.stdin.flush()

    def read_line():
        line = p.stdout.readline()
        if not line:
            raise EngineError("engine exited or timed out (rc %s)" % p.poll())
        return line.strip()

    try:
        send(["START %d" % size])
        while True:
            l = read_line()
            if l == "OK":
                break
            if l.startswith("ERROR"):
                raise EngineError(l)
        send(["INFO rule %d" % rule, "INFO timeout_turn 100000000", "INFO timeout_match 2147483647",
              "INFO time_left 2147483647"])
        out = []
        for d in depths:
            send(["INFO max_depth %d" % d] + board)
            last = None
            while True:
                l = read_line()
                m = SUMMARY_RE.match(l)
                if m:
                    last = (int(m.group(1)), m.group(2))
                elif l.startswith("ERROR"):
                    raise EngineError(l)
                elif MOVE_RE.match(l):
                    break
            if last is None:
                raise EngineError("no 'MESSAGE depth .. ev ..' line before the move")
            out.append(last)
            if stop is not None and stop(out):
                break
        send(["END"])
        return out
    finally:
        watchdog.cancel()
        try:
            p.stdin.close()
        except OSError:
            pass
        try:
            p.wait(timeout=2)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def is_mate(s):
    return s.startswith(("+M", "-M"))


# ----------------------------------------------------------------------------- output helpers
def fmt_opening(moves):
    return ", ".join("%d,%d" % m for m in moves)


def histogram(values, step, lo, hi):
    """Text lines of a histogram of `values` in buckets of `step` from lo to hi (clamped)."""
    counts = collections.Counter()
    for v in values:
        b = min(max(int((v - lo) // step), -1), int((hi - lo) // step))
        counts[b] += 1
    lines, top = [], max(counts.values()) if counts else 1
    for b in range(-1, int((hi - lo) // step) + 1):
        if b == -1:
            label = "      < %5d" % lo
        elif b == int((hi - lo) // step):
            label = "     >= %5d" % hi
        else:
            label = "%5d .. %5d" % (lo + b * step, lo + (b + 1) * step - 1)
        n = counts.get(b, 0)
        lines.append("%s %5d %s" % (label, n, "#" * round(40 * n / top)))
    return lines


def percentile(sorted_vals, q):
    if not sorted_vals:
        return float("nan")
    return sorted_vals[min(len(sorted_vals) - 1, int(q * len(sorted_vals)))]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="pbrain engine command (run without a shell)")
    ap.add_argument("--rule", type=int, default=0, choices=[0, 1, 4], help="0 freestyle, 1 standard, 4 renju")
    ap.add_argument("--size", type=int, default=15)
    ap.add_argument("--count", type=int, default=250, help="openings to keep")
    ap.add_argument("--seed", type=int, default=20240601)
    ap.add_argument("--stones", default="3,4,5", help="stone counts to draw from (comma list)")
    ap.add_argument("--radius", type=int, default=3, help="max Chebyshev distance from the centre")
    ap.add_argument("--depth", type=int, default=7, help="score at DEPTH and DEPTH+1, average")
    ap.add_argument("--window", type=int, default=75, help="keep |average score| <= WINDOW (black's view)")
    ap.add_argument("--prefilter", type=int, default=200,
                    help="first search at DEPTH-2 and DEPTH-1 in the same process; go on to DEPTH and "
                         "DEPTH+1 only if that average is within +-PREFILTER and not a mate (0: no prefilter)")
    ap.add_argument("--max-candidates", type=int, default=20000, help="stop after this many candidates")
    ap.add_argument("--timeout", type=float, default=120, help="seconds per candidate")
    a = ap.parse_args()

    engine_cmd = shlex.split(a.engine)
    stone_counts = [int(v) for v in a.stones.split(",")]
    depths = (a.depth, a.depth + 1)
    pre_depths = (a.depth - 2, a.depth - 1) if a.prefilter > 0 else ()
    t0 = time.monotonic()
    kept, pre_avgs, all_avgs = [], [], []
    n, mates, errors, prefiltered = 0, 0, 0, 0
    by_stones, kept_by_stones = collections.Counter(), collections.Counter()

    def black_avg(res, moves):
        sign = 1 if len(moves) % 2 == 0 else -1          # black is to move after an even count
        black = [sign * int(s) for _, s in res]
        return black, sum(black) / len(black)

    for moves in candidates(a.seed, stone_counts, a.radius):
        if len(kept) >= a.count or n >= a.max_candidates:
            break
        n += 1
        by_stones[len(moves)] += 1

        def stop(out):
            if any(is_mate(s) for _, s in out):
                return True
            if len(out) == len(pre_depths) and pre_depths:
                return abs(black_avg(out, moves)[1]) > a.prefilter
            return False

        try:
            res = search(engine_cmd, a.size, a.rule, moves, pre_depths + depths, a.timeout, stop)
        except (EngineError, OSError) as e:
            errors += 1
            print("candidate %d %s: engine error: %s" % (n, fmt_opening(moves), e), file=sys.stderr)
            continue
        if any(is_mate(s) for _, s in res):
            mates += 1
            continue
        if pre_depths:
            pre_avgs.append(black_avg(res[:2], moves)[1])
            if len(res) == 2:
                prefiltered += 1
                continue
            res = res[2:]
        black, avg = black_avg(res, moves)
        all_avgs.append(avg)
        if abs(avg) <= a.window:
            kept.append((moves, res, black, avg))
            kept_by_stones[len(moves)] += 1
        if n % 100 == 0:
            print("%6.0fs candidates %d, prefiltered %d, mates %d, kept %d"
                  % (time.monotonic() - t0, n, prefiltered, mates, len(kept)), file=sys.stderr)

    elapsed = time.monotonic() - t0
    cmd = "python3 scripts/openings/gen_openings.py " + " ".join(shlex.quote(v) for v in sys.argv[1:])
    ka = sorted(k[3] for k in kept)
    out = []
    out.append("# Balanced %s openings, %dx%d board, for referee.py --openings (rule %d)."
               % (RULE_NAMES[a.rule], a.size, a.size, a.rule))
    out.append("# Generated by: %s" % cmd)
    out.append("# Moves are x,y offsets from the centre (--opening-format rel), first stone black's.")
    out.append("# Candidates: seed %d, %s stones alternating from black, within radius %d of the centre,"
               % (a.seed, "/".join(map(str, stone_counts)), a.radius))
    out.append("#   no side with >= 3 stones in an enemy-free 5-point window, no duplicates under the 8 symmetries.")
    out.append("# Score: engine %s, fixed depth %d and %d (fresh process per opening), black's view, averaged;"
               % (engine_cmd[0].rsplit("/", 1)[-1], depths[0], depths[1]))
    if pre_depths:
        out.append("#   prefilter: depth %d and %d first, dropped if |average| > %d."
                   % (pre_depths[0], pre_depths[1], a.prefilter))
    out.append("# Kept if no mate score (+M/-M) at any depth and |average| <= %d." % a.window)
    out.append("# Candidates: %d (%s); mate scores: %d; prefiltered: %d; engine errors: %d; kept: %d (%s)."
               % (n, ", ".join("%d stones: %d" % kv for kv in sorted(by_stones.items())), mates, prefiltered,
                  errors, len(kept), ", ".join("%d stones: %d" % kv for kv in sorted(kept_by_stones.items()))))
    for title, vals in (("prefilter average (depth %s), all non-mate candidates"
                         % "/".join(map(str, pre_depths)), pre_avgs),
                        ("average (depth %d/%d), candidates searched that deep" % depths, all_avgs)):
        sv = sorted(vals)
        if not sv or (title.startswith("prefilter") and not pre_depths):
            continue
        out.append("# Score distribution, %s (black's view): n %d, median %+.0f, 10%%/90%% %+.0f/%+.0f:"
                   % (title, len(sv), percentile(sv, 0.5), percentile(sv, 0.1), percentile(sv, 0.9)))
        for l in histogram(sv, 100, -500, 500):
            out.append("#   " + l)
    if ka:
        out.append("# Kept openings: mean %+.1f, median %+.0f, min %+.0f, max %+.0f; histogram:"
                   % (sum(ka) / len(ka), percentile(ka, 0.5), ka[0], ka[-1]))
        w10 = -(-a.window // 10) * 10
        for l in histogram(ka, 10, -w10, w10 + 10):
            out.append("#   " + l)
    out.append("#")
    out.append("# opening  # score at depth %d, depth %d (black's view) -> average" % depths)
    for moves, res, black, avg in kept:
        out.append("%-40s # d%d %+d, d%d %+d -> %+.1f" % (fmt_opening(moves), res[0][0], black[0],
                                                           res[1][0], black[1], avg))
    sys.stdout.write("\n".join(out) + "\n")
    print("done in %.0fs: candidates %d, prefiltered %d, mates %d, errors %d, kept %d"
          % (elapsed, n, prefiltered, mates, errors, len(kept)), file=sys.stderr)
    if len(kept) < a.count:
        print("warning: only %d openings kept (wanted %d)" % (len(kept), a.count), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
