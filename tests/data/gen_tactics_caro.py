#!/usr/bin/env python3
"""Generate tests/data/tactics_caro.txt: caro tactics positions from Rensa's own lost games.

Usage (from the repository root):

    target/release/pbrain-rensa selfplay --rules caro --sizes 15 --sample 1000 \
        --nodes 60000 --games 200 --seed 25 --jobs 2 --out caro.rnsp
    python3 tests/data/gen_tactics_caro.py [--per-game N] caro.rnsp > tests/data/tactics_caro.txt

No engine that Rensa is measured against plays caro (Rapfi and PentaZen answer ERROR to
rule 8), so the games are Rensa's own: `selfplay` games in which one side lost. The self-play
file holds every position of a game that its search did not already score as a mate (and
none with a five to make or block), so the positions below are ones where Rensa, at the
self-play node budget, had not yet seen the forced win.  Python 3 standard library only
(pypy3 makes it about five times faster); the output depends only on the input file and the
limits below.

Caro (Gomocup rule 8): a run of six or more wins; a run of exactly five wins unless an
opponent stone stands at both of its ends (the board's edge is no block).  That changes what
answers a four: the five cell itself, or, when the run it would make is already blocked at
one end, the cell at its other end.  The solver below therefore never assumes a single
answer: after an attacker's four, the defender's answers are every cell after which the
attacker has no winning five cell left (the five cells themselves and the cells up to five
away on their lines are tried: nothing else can touch those runs).

The VCF solver is exhaustive up to MAX_VCF attacker fours, memoised by Zobrist hash, with a
node cap per search (a position whose search hits the cap is dropped, so every verdict
written is exact within the limit).  An attacker four must also kill every five cell the
defender has (the defender would otherwise make five); a defender answer that makes a four
of its own leaves the attacker the same duty on its next move.

Kinds written:

  vcf     the winner to move wins by VCF, shortest length at least 2 fours; 'answers' is
          every first move winning by VCF within MAX_VCF.  (No caro VCT solver here: a
          first move that wins only by a slower VCT with threes is not listed.)
  defend  Rensa's side to move, just before such a win: it has no VCF of its own; if it
          passed, the opponent would win by VCF; and only 1 to MAX_DEFENCES of its moves
          (every empty cell within distance 3 of a stone is tried) leave the opponent
          without a five cell and without a VCF.  Every other tried move is proved to lose
          to a VCF; a listed move is one not proved to lose (it may still lose to a VCT).

Because the vcf answers leave out wins by threes, a second step adds the moves that a long
search of Rensa shows to win as well (scripts/tactics_also.py checks the misses of a run):

    python3 tests/data/gen_tactics_caro.py --merge-also tests/data/tactics_caro_also.txt \
        SUITE > tests/data/tactics_caro.txt

Per game: the earliest winner-to-move position with a VCF, the Rensa position just before
it, then later VCF positions of the winner, at most --per-game cases (default PER_GAME).  Positions already
written are not written twice.
"""

import argparse
import collections
import gzip
import importlib.util
import os
import random
import struct
import sys
import time

# The padded board, its five-cell and four-candidate scans and the stone lines come from
# gen_tactics.py beside this file; only what caro changes is below.
_spec = importlib.util.spec_from_file_location(
    "gen_tactics", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_tactics.py"))
gt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gt)
CapExceeded = gt.CapExceeded
EMPTY, BLACK, WHITE = gt.EMPTY, gt.BLACK, gt.WHITE

SEED = 0x4341524F  # "CARO"
MAX_VCF = 10
NODE_CAP = 60000
MAX_ANSWERS = 6
MAX_DEFENCES = 3
PER_GAME = 4
RULE_CARO = 8


class Board(gt.Pos):
    """A caro position: gt.Pos with caro's winning runs."""

    def __init__(self, n, zob):
        super().__init__(n, RULE_CARO, None, zob)

    def line_five(self, q, c, d):
        """Whether c playing the empty cell q makes a winning run along d (caro)."""
        b = self.b
        n = 1
        j = q + d
        while b[j] == c:
            n += 1
            j += d
        e1 = b[j]
        j = q - d
        while b[j] == c:
            n += 1
            j -= d
        e2 = b[j]
        opp = 3 - c
        return n > 5 or (n == 5 and not (e1 == opp and e2 == opp))

    def is_five(self, q, c):
        return any(self.line_five(q, c, d) for d in self.dirs)

    def four_cands(self, c):
        """Every move that can give c a five cell (gt.Pos.four_cands without directions)."""
        return {q for q, _ in super().four_cands(c)}

    def still_fives(self, cells, c):
        return {r for r in cells if self.b[r] == EMPTY and self.is_five(r, c)}

    def answers(self, fives, att):
        """The defender's cells after which `att` has none of `fives` left (the defender
        cannot give the attacker new five cells, so these are all that matter)."""
        cand = set(fives)
        for r in fives:
            for d in self.dirs:
                for k in range(1, 6):
                    for q in (r + k * d, r - k * d):
                        if self.b[q] == EMPTY:
                            cand.add(q)
        out = []
        dfd = 3 - att
        for m in sorted(cand):
            self.place(m, dfd)
            if not self.still_fives(fives, att):
                out.append(m)
            self.remove(m)
        return out


class Vcf:
    """Exhaustive depth-limited VCF search for one attacker (see the module comment)."""

    def __init__(self, pos, att, cap=NODE_CAP):
        self.pos, self.att, self.dfd = pos, att, 3 - att
        self.memo = {}
        self.nodes = 0
        self.cap = cap

    def att_node(self, depth, dfives):
        """Attacker to move, no five cell of its own; dfives: the defender's five cells."""
        self.nodes += 1
        if self.nodes > self.cap:
            raise CapExceeded()
        if depth <= 0:
            return False
        key = (self.pos.h, frozenset(dfives))
        m = self.memo.get(key)
        if m is not None:
            if m[0] <= depth:
                return True
            if m[1] >= depth:
                return False
        win = any(self.try_four(q, depth, dfives) for q in sorted(self.pos.four_cands(self.att)))
        win_d, fail_d = m if m else (99, -1)
        self.memo[key] = (min(win_d, depth), fail_d) if win else (win_d, max(fail_d, depth))
        return win

    def try_four(self, q, depth, dfives):
        """The attacker plays q: whether it wins by VCF within depth fours from here."""
        pos, att, dfd = self.pos, self.att, self.dfd
        if pos.b[q] != EMPTY:
            return False
        pos.place(q, att)
        try:
            if pos.still_fives(dfives, dfd):
                return False  # the defender makes five
            fives = pos.fives_through(q, att)
            if not fives:
                return False
            for a in pos.answers(fives, att):
                pos.place(a, dfd)
                try:
                    if not self.att_node(depth - 1, pos.fives_through(a, dfd)):
                        return False
                finally:
                    pos.remove(a)
            return True
        finally:
            pos.remove(q)


def has_vcf(pos, att, dfives=None, cap=NODE_CAP):
    if dfives is None:
        dfives = pos.all_fives(3 - att)
    return Vcf(pos, att, cap).att_node(MAX_VCF, set(dfives))


def vcf_root(pos, att):
    """(shortest VCF length or None, every first move winning within MAX_VCF)."""
    v = Vcf(pos, att)
    qs = sorted(pos.four_cands(att))
    for depth in range(1, MAX_VCF + 1):
        if any(v.try_four(q, depth, set()) for q in qs):
            return depth, [q for q in qs if v.try_four(q, MAX_VCF, set())]
    return None, []


def examine_win(pos, tomove):
    shortest, winners = vcf_root(pos, tomove)
    if shortest is None or shortest < 2 or len(winners) > MAX_ANSWERS:
        return None
    return "vcf", winners, "shortest VCF %d, %d winning first moves" % (shortest, len(winners))


def examine_defend(pos, tomove):
    opp = 3 - tomove
    if has_vcf(pos, tomove) or not has_vcf(pos, opp):
        return None
    saves = []
    for m in pos.near_empties(3):
        pos.place(m, tomove)
        try:
            if pos.all_fives(opp):
                continue
            if has_vcf(pos, opp, pos.fives_through(m, tomove)):
                continue
            saves.append(m)
        finally:
            pos.remove(m)
        if len(saves) > MAX_DEFENCES:
            return None
    if not saves:
        return None
    return "defend", saves, "the opponent wins by VCF if Rensa passes; %d saving moves" % len(saves)


def examine(pos, tomove, defend):
    if pos.all_fives(BLACK) or pos.all_fives(WHITE):
        return None
    try:
        return examine_defend(pos, tomove) if defend else examine_win(pos, tomove)
    except CapExceeded:
        return None


def games(path):
    """(game number, size, [(side, stones, result for the side to move)]) per game, from a
    Rensa self-play file (src/selfplay.rs; scripts/selfplay_read.py reads the same)."""
    data = (gzip.open if path.endswith(".gz") else open)(path, "rb").read()
    if data[:4] != b"RNSP" or struct.unpack_from("<H", data, 4)[0] != 1:
        raise SystemExit("%s: not a version 1 Rensa self-play file" % path)
    by_game = collections.OrderedDict()
    at = 8
    while at + 6 <= len(data):
        game, n = struct.unpack_from("<IH", data, at)
        at += 6
        for _ in range(n):
            rule, w, h, side, result, _, score, count = struct.unpack_from("<BBBBbBhH", data, at)
            at += 10
            stones = [(data[at + 2 * i] & 0x7F, data[at + 2 * i + 1], data[at + 2 * i] >> 7)
                      for i in range(count)]
            at += 2 * count
            if rule == 8 and w == h:
                by_game.setdefault(game, (w, []))[1].append((side, stones, result))
    for game, (size, recs) in by_game.items():
        recs.sort(key=lambda r: len(r[1]))
        yield game, size, recs


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def merge_also(also_path, suite_path):
    """The suite with the extra winning moves of ALSO added to its vcf cases' answers (lines
    `CASE x,y  # note`, as scripts/tactics_also.py writes them), to stdout."""
    extra = collections.defaultdict(list)
    for line in open(also_path):
        body = line.split("#", 1)[0].split()
        if len(body) == 2:
            extra[body[0]].append(body[1])
    out = []
    comment = None
    for line in open(suite_path):
        if line.startswith("# ") and " to move: " in line:
            comment = len(out)
        if line.startswith("case "):
            name = line.split()[1]
        if line.startswith("answers ") and extra.get(name):
            have = line.split()[1:]
            add = [m for m in extra[name] if m not in have]
            if add:
                line = "answers %s\n" % " ".join(have + add)
                out[comment] = out[comment].rstrip("\n") + (
                    "; also winning by a long search of Rensa (%s): %s\n"
                    % (os.path.basename(also_path), " ".join(add)))
        out.append(line)
    if out and out[-1].startswith("# totals"):
        out.append("# extra answers from %s (a long search of Rensa, not the solver)\n"
                   % os.path.basename(also_path))
    sys.stdout.write("".join(out))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--per-game", type=int, default=PER_GAME)
    ap.add_argument("--merge-also", metavar="ALSO", help="merge ALSO into the suite file given")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.merge_also:
        return merge_also(args.merge_also, args.files[0])
    per_game = args.per_game
    zobs = {}
    seen = set()
    cases = []
    t0 = time.time()
    for path in args.files:
        for game, size, recs in games(path):
            if size not in zobs:
                w = size + 2 * gt.PAD
                zr = random.Random(SEED + size)
                zobs[size] = {c: [zr.getrandbits(64) for _ in range(w * w)] for c in (BLACK, WHITE)}
            decided = [r for r in recs if r[2] != 0]
            if not decided:
                continue
            # side numbers: 0 black, 1 white; the loser is the side whose result is -1
            s, _, res = decided[0]
            loser = s if res < 0 else 1 - s
            found = []
            first = None
            for side, stones, _ in recs:
                if side == loser or len(found) >= per_game:
                    continue
                pos = board_of(size, zobs[size], stones)
                c = examine(pos, BLACK if side == 0 else WHITE, False)
                if c:
                    found.append((len(stones), side, pos, c))
                    if first is None:
                        first = len(stones)
            if first is not None:
                before = [r for r in recs if r[0] == loser and len(r[1]) < first]
                for side, stones, _ in reversed(before[-2:]):
                    pos = board_of(size, zobs[size], stones)
                    c = examine(pos, BLACK if side == 0 else WHITE, True)
                    if c:
                        found.insert(1, (len(stones), side, pos, c))
                        break
            got = 0
            for ply, side, pos, c in found[:per_game]:
                key = (size, pos.h, side)
                if key in seen:
                    continue
                seen.add(key)
                got += 1
                cases.append((os.path.basename(path), game, size, ply, side, pos, c))
            log("%s game %d: %d cases, %d so far, %.0fs" % (path, game, got, len(cases), time.time() - t0))
    write(cases, args.files, per_game)


def board_of(size, zob, stones):
    pos = Board(size, zob)
    for x, y, white in stones:
        pos.place(pos.idx(x, y), WHITE if white else BLACK)
    return pos


def write(cases, paths, per_game):
    w = sys.stdout.write
    w("# Caro tactics positions from Rensa's own self-play games (no anchor engine plays caro):\n")
    w("# the winner's forced wins by VCF and the loser's only saving moves before them.\n")
    w("# GENERATED FILE - do not edit.  Regenerate from the repository root with:\n")
    w("#   python3 tests/data/gen_tactics_caro.py --per-game %d SELFPLAY.rnsp... > tests/data/tactics_caro.txt\n"
      % per_game)
    w("# Source: %s (see the generator's docstring for the command that made it).\n"
      % " ".join(os.path.basename(p) for p in paths))
    w("# Verdicts from the caro VCF solver of the generator (up to %d fours, blocked fives and\n" % MAX_VCF)
    w("# the two answers to a half-blocked four included).\n")
    w("# kind vcf: 'answers' = every first move winning by VCF; a move winning by a slower VCT is\n")
    w("#   listed only where a long search of Rensa showed it (--merge-also, noted in the case).\n")
    w("# kind defend: 'answers' = the only moves (within distance 3 of a stone) after which the\n")
    w("#   opponent has no VCF; every other such move loses to a VCF.\n")
    w("# 'ply' = stones on the board.  Coordinates x,y are 0-based (x = column, y = row).\n")
    counts = collections.Counter()
    for n, (base, game, size, ply, side, pos, (kind, answers, note)) in enumerate(cases, 1):
        counts[kind] += 1
        colour = "black" if side == 0 else "white"
        w("\n# %s game %d ply %d, caro %d, %s to move: %s\n" % (base, game, ply, size, colour, note))
        w("case loss-caro-%03d\n" % n)
        w("rule 8\n")
        w("size %d\n" % size)
        w("black %s\n" % gt.stone_line(pos, BLACK))
        w("white %s\n" % gt.stone_line(pos, WHITE))
        w("tomove %s\n" % colour)
        w("kind %s\n" % kind)
        w("answers %s\n" % " ".join("%d,%d" % pos.xy(q) for q in answers))
        w("end\n")
    w("\n# totals: %s\n" % ", ".join("%s %d" % kv for kv in sorted(counts.items())))


if __name__ == "__main__":
    main()
