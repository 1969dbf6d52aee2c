#!/usr/bin/env python3
"""Generate tests/data/tactics.txt: tactics positions for Rensa's search.

Usage (from the repository root):

    python3 tests/data/gen_tactics.py [/path/to/renju.py] > tests/data/tactics.txt

The optional argument is the renju forbidden-move oracle (the Gomocup referee's renju.py:
forbidden(grid, x, y) -> reason or None, grid[y][x] with 0 empty, 1 black, 2 white);
default /work/shared/tools/renju.py.  It is needed only here, at generation time.
Python 3 standard library only; the output is fully determined by SEED and the oracle.

Every position is checked by an independent, exhaustive threat-space solver written here:

  VCF (victory by continuous fours): the attacker plays only moves that make a four (after
  the move it has a cell completing a winning five); the defender must block that cell.
  Two five cells win at once; a defender five left open wins for the defender (so the
  attacker must block it, with a four of its own); under renju black loses when its forced
  block is a forbidden point, and black's own fours must be legal.  Exhaustive up to
  MAX_VCF attacker moves, memoised by Zobrist hash, with a node cap per position (a
  position whose search hits the cap is dropped, so every verdict written is exact).

Kinds written:

  vcf     the side to move has a VCF whose shortest length is at least 2 attacker moves;
          'answers' is the full set of first moves that win by VCF within MAX_VCF.
  defend  if the side to move passed, the opponent would win by VCF; the side to move has
          no VCF of its own; and exactly one of its moves (every empty cell within
          distance 3 of a stone is tried) leaves the opponent without a five and without a
          VCF.  'answers' is that move.

Rules: 0 freestyle (five or more wins), 1 standard (exactly five wins), 4 renju (black
wins only with exactly five and may not play forbidden points; white wins with five or
more).  Positions come from seeded, shape-biased random play near the centre; no position
has a five cell for either side (so neither side has a four, open or not).
"""

import importlib.util
import random
import sys

SEED = 0x5441435449  # "TACTI"
MAX_VCF = 10
NODE_CAP = 60000
KEEP_SHORT_VCF = 0.3     # fraction of shortest-2 VCF positions kept
KEEP_SHORT_DEFEND = 0.4  # fraction of defences against a one-move VCF kept

# (rule, size, kind) -> how many to write
TARGETS = [
    (0, 15, "vcf", 26), (0, 20, "vcf", 4), (0, 15, "defend", 13), (0, 20, "defend", 2),
    (1, 15, "vcf", 20), (1, 20, "vcf", 3), (1, 15, "defend", 10), (1, 20, "defend", 2),
    (4, 15, "vcf", 27), (4, 15, "defend", 13),
]
RULE_TAG = {0: "fs", 1: "std", 4: "rj"}
RULE_NAME = {0: "freestyle", 1: "standard", 4: "renju"}
EMPTY, BLACK, WHITE, WALL = 0, 1, 2, 3
PAD = 5


class CapExceeded(Exception):
    pass


def load_oracle(path):
    spec = importlib.util.spec_from_file_location("renju_oracle", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def log(*a):
    print(*a, file=sys.stderr, flush=True)


class Pos:
    """A position on a padded flat board, with a square grid[y][x] copy for the oracle."""

    def __init__(self, n, rule, oracle, zob):
        self.n, self.rule, self.oracle = n, rule, oracle
        self.w = w = n + 2 * PAD
        self.b = [WALL] * (w * w)
        for y in range(n):
            for x in range(n):
                self.b[self.idx(x, y)] = EMPTY
        self.grid = [[0] * n for _ in range(n)]
        self.dirs = (1, w, w + 1, w - 1)
        self.zob = zob
        self.h = 0
        self.stones = {BLACK: set(), WHITE: set()}
        self.forb_cache = {}

    def idx(self, x, y):
        return (y + PAD) * self.w + x + PAD

    def xy(self, i):
        return i % self.w - PAD, i // self.w - PAD

    def place(self, i, c):
        self.b[i] = c
        x, y = self.xy(i)
        self.grid[y][x] = c
        self.h ^= self.zob[c][i]
        self.stones[c].add(i)

    def remove(self, i):
        c = self.b[i]
        self.b[i] = EMPTY
        x, y = self.xy(i)
        self.grid[y][x] = 0
        self.h ^= self.zob[c][i]
        self.stones[c].discard(i)

    def long_wins(self, c):
        return self.rule == 0 or (self.rule == 4 and c == WHITE)

    def line_five(self, q, c, d):
        """Whether c playing the empty cell q makes a winning line along d."""
        b = self.b
        n = 1
        j = q + d
        while b[j] == c:
            n += 1
            j += d
        j = q - d
        while b[j] == c:
            n += 1
            j -= d
        return n == 5 or (n > 5 and self.long_wins(c))

    def forbidden(self, i):
        """Renju: whether black may not play the empty cell i (cached by position)."""
        if self.rule != 4:
            return False
        key = (self.h, i)
        v = self.forb_cache.get(key)
        if v is None:
            x, y = self.xy(i)
            v = self.oracle.forbidden(self.grid, x, y) is not None
            self.forb_cache[key] = v
        return v

    def legal(self, i, c):
        return self.b[i] == EMPTY and not (c == BLACK and self.forbidden(i))

    def fives_through(self, p, c):
        """Empty cells completing a winning five for c on lines through c's stone at p."""
        b = self.b
        out = set()
        for d in self.dirs:
            for s in (d, -d):
                q = p
                for _ in range(5):
                    q += s
                    v = b[q]
                    if v == EMPTY:
                        if self.line_five(q, c, d):
                            out.add(q)
                    elif v != c:
                        break
        return out

    def all_fives(self, c):
        out = set()
        for p in self.stones[c]:
            out |= self.fives_through(p, c)
        return out

    def four_cands_through(self, p, c, out):
        """Adds (q, d) for every empty q in a 5-window along d through p holding three c
        stones, two empties and nothing else."""
        b = self.b
        for d in self.dirs:
            for k in range(5):
                s = p - k * d
                cnt = 0
                emp = []
                ok = True
                for t in range(5):
                    v = b[s + t * d]
                    if v == c:
                        cnt += 1
                    elif v == EMPTY:
                        emp.append(s + t * d)
                    else:
                        ok = False
                        break
                if ok and cnt == 3:
                    for q in emp:
                        out.add((q, d))

    def four_cands(self, c):
        out = set()
        for p in self.stones[c]:
            self.four_cands_through(p, c, out)
        return out

    def near_empties(self, dist):
        n = self.n
        occ = [self.xy(i) for i in self.stones[BLACK] | self.stones[WHITE]]
        out = set()
        for x, y in occ:
            for yy in range(max(0, y - dist), min(n, y + dist + 1)):
                for xx in range(max(0, x - dist), min(n, x + dist + 1)):
                    if self.grid[yy][xx] == 0:
                        out.add(self.idx(xx, yy))
        return sorted(out)


class Vcf:
    """Exhaustive depth-limited VCF search for one attacker on one position."""

    def __init__(self, pos, att):
        self.pos, self.att, self.dfd = pos, att, 3 - att
        self.memo = {}
        self.nodes = 0

    def search(self, cands, dfives, depth):
        """Attacker to move, with no five of its own; dfives: the defender's five cells.
        True when the attacker wins by VCF within depth attacker moves."""
        pos, att, dfd = self.pos, self.att, self.dfd
        self.nodes += 1
        if self.nodes > NODE_CAP:
            raise CapExceeded()
        if len(dfives) >= 2 or depth <= 0:
            return False
        key = pos.h
        m = self.memo.get(key)
        if m is not None:
            if m[0] <= depth:
                return True
            if m[1] >= depth:
                return False
        must = next(iter(dfives)) if dfives else None
        byq = {}
        for q, d in cands:
            if pos.b[q] == EMPTY and (must is None or q == must):
                byq.setdefault(q, []).append(d)
        win = False
        for q in sorted(byq):
            if self.try_move(q, cands, depth):
                win = True
                break
        win_d, fail_d = m if m else (99, -1)
        if win:
            self.memo[key] = (min(win_d, depth), fail_d)
        else:
            self.memo[key] = (win_d, max(fail_d, depth))
        return win

    def fours_of(self, q):
        """Attacker stone just placed at q: its five cells."""
        return self.pos.fives_through(q, self.att)

    def try_move(self, q, cands, depth):
        pos, att, dfd = self.pos, self.att, self.dfd
        if att == BLACK and pos.forbidden(q):
            return False
        pos.place(q, att)
        try:
            fives = self.fours_of(q)
            if not fives:
                return False
            if len(fives) >= 2:
                return True
            r = next(iter(fives))
            if dfd == BLACK and pos.forbidden(r):
                return True
            pos.place(r, dfd)
            try:
                nf = pos.fives_through(r, dfd)
                child = set(cands)
                pos.four_cands_through(q, att, child)
                return self.search(child, nf, depth - 1)
            finally:
                pos.remove(r)
        finally:
            pos.remove(q)

    def root_moves(self, dfives=frozenset()):
        return self.pos.four_cands(self.att), set(dfives)


def has_vcf(pos, att, depth=MAX_VCF, dfives=None):
    v = Vcf(pos, att)
    if dfives is None:
        dfives = pos.all_fives(3 - att)
    return v.search(pos.four_cands(att), set(dfives), depth)


def vcf_root(pos, att):
    """(shortest length or None, sorted winning first moves within MAX_VCF)."""
    v = Vcf(pos, att)
    cands = pos.four_cands(att)
    qs = sorted({q for q, _ in cands})
    shortest = None
    for depth in range(1, MAX_VCF + 1):
        if any(v.try_move(q, cands, depth) for q in qs):
            shortest = depth
            break
    if shortest is None:
        return None, []
    winners = [q for q in qs if v.try_move(q, cands, MAX_VCF)]
    return shortest, winners


def single_defence(pos, dfd):
    """The one move of dfd that stops every VCF of the opponent, or None (zero or several)."""
    att = 3 - dfd
    found = []
    for c in pos.near_empties(3):
        if not pos.legal(c, dfd):
            continue
        pos.place(c, dfd)
        try:
            if pos.all_fives(att):
                continue
            dfives = pos.fives_through(c, dfd)
            if has_vcf(pos, att, MAX_VCF, dfives):
                continue
            found.append(c)
            if len(found) > 1:
                return None
        finally:
            pos.remove(c)
    return found[0] if len(found) == 1 else None


# ---------------------------------------------------------------- position generation

def move_scores(pos, c, rng):
    """Shape-biased random move choice for colour c: favour cells that extend either
    side's lines, with noise."""
    b = pos.b
    best = []
    for q in pos.near_empties(2):
        s = 0.0
        for d in pos.dirs:
            for k in range(5):
                st = q - k * d
                mine = theirs = 0
                bad = False
                for t in range(5):
                    v = b[st + t * d]
                    if v == WALL:
                        bad = True
                        break
                    if v == c:
                        mine += 1
                    elif v != EMPTY:
                        theirs += 1
                if bad or (mine and theirs):
                    continue
                s += (4 ** mine if mine else 0) + 0.7 * (4 ** theirs if theirs else 0)
        s *= rng.uniform(0.3, 1.7)
        best.append((s, q))
    best.sort(reverse=True)
    return [q for _, q in best[:6]]


def makes_five(pos, q, c):
    return any(pos.line_five(q, c, d) for d in pos.dirs)


def random_game(pos, rng, plies):
    """Plays up to `plies` shape-biased random moves, never completing a five and always
    blocking an opponent's five cell; yields the side to move after each move from ply 9."""
    n = pos.n
    c0 = n // 2 + rng.randint(-2, 2)
    pos.place(pos.idx(c0, n // 2 + rng.randint(-2, 2)), BLACK)
    side = WHITE
    for ply in range(1, plies):
        threats = sorted(pos.all_fives(3 - side))
        opts = threats if threats else move_scores(pos, side, rng)
        if not threats:
            rng.shuffle(opts)
        moved = False
        for q in opts[:4]:
            if not pos.legal(q, side) or makes_five(pos, q, side):
                continue
            pos.place(q, side)
            moved = True
            break
        if not moved:
            return
        side = 3 - side
        if ply >= 9:
            yield side


def stone_line(pos, c):
    return " ".join("%d,%d" % pos.xy(i) for i in sorted(pos.stones[c], key=lambda i: pos.xy(i)[::-1]))


def has_win_stone(pos):
    for c in (BLACK, WHITE):
        for p in pos.stones[c]:
            for d in pos.dirs:
                pos.b[p] = EMPTY
                w = pos.line_five(p, c, d)
                pos.b[p] = c
                if w:
                    return True
    return False


def copy_pos(pos):
    q = Pos(pos.n, pos.rule, pos.oracle, pos.zob)
    for c in (BLACK, WHITE):
        for i in pos.stones[c]:
            q.place(i, c)
    return q


def generate(oracle):
    rng = random.Random(SEED)
    zobs = {}
    out = []
    seen = set()
    for rule, size, kind, want in TARGETS:
        if size not in zobs:
            w = size + 2 * PAD
            zr = random.Random(SEED + size)
            zobs[size] = {c: [zr.getrandbits(64) for _ in range(w * w)] for c in (BLACK, WHITE)}
        got = 0
        games = 0
        while got < want:
            games += 1
            if games > 4000:
                log("giving up on", rule, size, kind, "at", got)
                break
            pos = Pos(size, rule, oracle, zobs[size])
            plies = rng.randint(12, 44)
            for tomove in random_game(pos, rng, plies):
                if has_win_stone(pos):
                    break
                if pos.all_fives(BLACK) or pos.all_fives(WHITE):
                    continue
                key = (rule, size, pos.h)
                if key in seen:
                    continue
                try:
                    case = examine(pos, tomove, kind, rng)
                except CapExceeded:
                    case = None
                if case is None:
                    continue
                seen.add(key)
                got += 1
                name = "%s%s-%s-%03d" % (RULE_TAG[rule], "" if size == 15 else "20", kind, got)
                out.append((name, rule, size, copy_pos(pos), tomove, kind, case))
                log(name, "game", games, case[1])
                break  # one position per game
    return out


def examine(pos, tomove, kind, rng):
    opp = 3 - tomove
    if kind == "vcf":
        # cheap filter: any four move at all, and a quick full check
        if not pos.four_cands(tomove):
            return None
        if not has_vcf(pos, tomove):
            return None
        shortest, winners = vcf_root(pos, tomove)
        if shortest is None or shortest < 2 or not winners:
            return None
        # bias toward longer wins: most two-move VCFs are passed over
        if shortest == 2 and rng.random() > KEEP_SHORT_VCF:
            return None
        return winners, "shortest VCF %d, %d winning first moves" % (shortest, len(winners))
    # defend
    if not pos.four_cands(opp):
        return None
    if not has_vcf(pos, opp):
        return None
    # bias toward hidden threats: most defences against a one-move win are passed over
    opp_shortest, _ = vcf_root(pos, opp)
    if opp_shortest == 1 and rng.random() > KEEP_SHORT_DEFEND:
        return None
    if has_vcf(pos, tomove):
        return None
    d = single_defence(pos, tomove)
    if d is None:
        return None
    return [d], "opponent's shortest VCF if passed: %d; single saving move" % opp_shortest


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/tools/renju.py"
    oracle = load_oracle(path)
    cases = generate(oracle)
    w = sys.stdout.write
    w("# Tactics positions for Rensa: forced wins by VCF and single saving defences.\n")
    w("# GENERATED FILE - do not edit.  Regenerate from the repository root with:\n")
    w("#   python3 tests/data/gen_tactics.py [/path/to/renju.py] > tests/data/tactics.txt\n")
    w("# Verdicts come from the exhaustive threat solver in the generator (VCF up to %d\n" % MAX_VCF)
    w("# attacker moves); renju forbidden points from the Gomocup referee's renju.py.\n")
    w("# kind vcf: 'answers' = every first move winning by VCF within the limit.\n")
    w("# kind defend: 'answers' = the only move after which the opponent has no VCF.\n")
    w("# Coordinates x,y are 0-based (x = column, y = row).\n")
    for name, rule, size, pos, tomove, kind, (answers, note) in cases:
        w("\n# %s, %s to move: %s\n" % (RULE_NAME[rule], "black" if tomove == BLACK else "white", note))
        w("case %s\n" % name)
        w("rule %d\n" % rule)
        w("size %d\n" % size)
        w("black %s\n" % stone_line(pos, BLACK))
        w("white %s\n" % stone_line(pos, WHITE))
        w("tomove %s\n" % ("black" if tomove == BLACK else "white"))
        w("kind %s\n" % kind)
        w("answers %s\n" % " ".join("%d,%d" % pos.xy(q) for q in answers))
        w("end\n")
    counts = {}
    for c in cases:
        counts[(c[1], c[5])] = counts.get((c[1], c[5]), 0) + 1
    w("\n# totals: %s\n" % ", ".join("%s %s %d" % (RULE_NAME[r], k, v) for (r, k), v in sorted(counts.items())))


if __name__ == "__main__":
    main()
