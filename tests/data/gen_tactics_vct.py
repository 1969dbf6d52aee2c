#!/usr/bin/env python3
"""Generate tests/data/tactics_vct.txt: VCT positions for Rensa's threat-space search.

Usage (from the repository root):

    python3 tests/data/gen_tactics_vct.py [/path/to/renju.py] > tests/data/tactics_vct.txt

The optional argument is the renju forbidden-move oracle (the Gomocup referee's renju.py:
forbidden(grid, x, y) -> reason or None, grid[y][x] with 0 empty, 1 black, 2 white);
default /work/shared/tools/renju.py.  It is needed only here, at generation time.
Python 3 standard library only; the output is fully determined by SEED and the oracle.
The board, the random games and the VCF solver come from gen_tactics.py beside this file
(the generator of tactics.txt); the VCT solver below is new.

The VCT solver (victory by continuous threats: fours and open threes) is exhaustive up to
MAX_VCT attacker moves, memoised by Zobrist hash, with a node cap per search (a position
whose search hits the cap is dropped, so every verdict written is exact within the
limit).  The renju oracle is asked only about black moves that are not surely legal
(surely_legal: an exact five, or no overline, at most one four and at most one line
shaped like a three).  Its rules:

  A five cell of a side is an empty cell completing a winning five for it (exactly five
  under standard, and for black under renju; five or more otherwise).  The attacker's
  "immediate wins" T are its legal cells that give it two or more five cells (a straight
  four, or a double four where that is legal).

  Attacker moves: a four (after it the attacker has a five cell) or an open three (after
  it T is not empty).  Renju: black plays only legal moves, so a black three whose
  straight-four points are all forbidden is no threat.  A defender five cell left open
  makes the attacker block it; that block counts as one attacker move and must itself be
  a four or an open three, or the threat sequence is over.

  Defender answers.  To a four: block the five cell (two five cells, or under renju a
  forbidden block for black, lose at once).  To an open three: every cell that stops
  each cell of T (the cell itself or one of the five cells it would make; a defender
  stone anywhere else leaves that straight four intact), plus every defender four; after
  a defender four the attacker must block (it loses if it cannot: two five cells, or a
  forbidden block for black), and the defender answers the threat again.  Under renju
  with black attacking, a white stone elsewhere could in principle make black's
  straight-four point forbidden (by freeing the four point of a second three through it),
  and a black stone elsewhere could free a forbidden straight-four point; in those cases
  every empty cell is tried, so the answer and threat sets stay complete.

  The length of a VCT counts the attacker's moves up to the one that leaves two five
  cells (not the five itself); a VCF of length 1 is a double four.

Kinds written (each case's comment gives its shortest VCT length):

  vct     the side to move wins by VCT in at least 2 moves and has no VCF (no win by
          fours alone within gen_tactics.MAX_VCF = 10 fours); neither side has a five cell
          on the board (the opponent may have threes).  'answers' is the full set of first
          moves winning by VCT within MAX_VCT (positions with more than MAX_ANSWERS are
          passed over).  Renju cases marked "uses black's forbidden points" are white wins
          that disappear when black may play every empty cell.
  defend  neither side has a five cell; if the side to move passed, the opponent would
          win by VCT in at least 2 moves (cases marked "VCT only" have no VCF for it);
          the side to move has no VCF and no VCT of its own; and of its moves (every
          empty cell within distance 3 of a stone is tried) only those listed in
          'answers' (1 to 3) leave the opponent without a VCT within MAX_VCT.  Every
          other tried move loses to a VCT.  (A listed move is one not proved to lose:
          a four of the side to move that the opponent must block with a move that is
          no threat also leaves it without a VCT, and would be listed.)

Rules: 0 freestyle (five or more wins), 1 standard (exactly five wins), 4 renju (black
wins only with exactly five and may not play forbidden points; white wins with five or
more).  Positions come from seeded, shape-biased random play near the centre.
"""

import importlib.util
import os
import random
import sys
import time

_spec = importlib.util.spec_from_file_location(
    "gen_tactics", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen_tactics.py"))
gt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gt)
# The board (gt.Pos), the random games, the VCF solver (gt.has_vcf) and the oracle loader
# come from gen_tactics.py.  A wider wall lets the cached line readers below slice 10 cells
# either side of any board cell.
gt.PAD = 10
CapExceeded = gt.CapExceeded
EMPTY, BLACK, WHITE, WALL = gt.EMPTY, gt.BLACK, gt.WHITE, gt.WALL

SEED = 0x564354  # "VCT"
MAX_VCT = 6
NODE_CAP = 40000        # nodes per VCT search (one attacker, one root position)
SCREEN_CAP = 3000       # a first, cheap look: positions needing more are skipped
OWN_CAP = 15000         # defend: proving that the side to move has no VCT of its own
MAX_ANSWERS = 6         # vct: at most this many winning first moves
MAX_DEFENCES = 3        # defend: at most this many saving moves
KEEP_SHORT_VCT = 0.35   # vct: fraction of shortest-2 positions kept
KEEP_VCF_DEFEND = 0.25  # defend: fraction kept where the opponent also has a VCF

# (rule, size, kind, how many); kind "vct-fb": renju, white to move, a VCT that uses
# black's forbidden points (written as kind vct)
TARGETS = [
    (0, 15, "vct", 14), (0, 20, "vct", 2), (0, 15, "defend", 8), (0, 20, "defend", 1),
    (1, 15, "vct", 14), (1, 20, "vct", 2), (1, 15, "defend", 8), (1, 20, "defend", 1),
    (4, 15, "vct-fb", 5), (4, 15, "vct", 11), (4, 15, "defend", 7),
]
RULE_TAG = {0: "fs", 1: "std", 4: "rj"}
RULE_NAME = {0: "freestyle", 1: "standard", 4: "renju"}
KIND_TAG = {"vct": "vct", "vct-fb": "vct", "defend": "vctdef"}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- cached line readers
# Each reads a few cells along one direction as bytes (values EMPTY, BLACK, WHITE, WALL)
# and caches the answer per pattern.

_cache = {}


def _cached(key, fn):
    r = _cache.get(key)
    if r is None:
        if len(_cache) > 3000000:
            _cache.clear()
        r = _cache[key] = fn()
    return r


def _fives_seg(seg, c, long_ok):
    """gen_tactics' fives_through along one direction: seg = 21 cells with the stone at
    10; offsets of empty cells within 5, reached over c's stones and empties, where c
    makes a winning run."""
    out = []
    for s in (1, -1):
        for k in range(1, 6):
            j = 10 + s * k
            v = seg[j]
            if v == EMPTY:
                n = 1
                i = j + 1
                while i < 21 and seg[i] == c:
                    n += 1
                    i += 1
                i = j - 1
                while i >= 0 and seg[i] == c:
                    n += 1
                    i -= 1
                if n == 5 or (n > 5 and long_ok):
                    out.append(s * k)
            elif v != c:
                break
    return tuple(out)


def fives_dir(pos, p, c, d):
    seg = bytes(pos.b[p - 10 * d:p + 11 * d:d])
    lw = pos.long_wins(c)
    return _cached((0, c, lw, seg), lambda: _fives_seg(seg, c, lw))


def fives_through(pos, p, c):
    """Same as gt.Pos.fives_through (five cells of c on lines through p), cached."""
    out = set()
    for d in pos.dirs:
        for k in fives_dir(pos, p, c, d):
            out.add(p + k * d)
    return out


def five_count(pos, p, c):
    return sum(len(fives_dir(pos, p, c, d)) for d in pos.dirs)


def fives_after(pos, q, c):
    """Five cells c would have after playing the empty cell q (lines through q only)."""
    b = pos.b
    b[q] = c
    try:
        return fives_through(pos, q, c)
    finally:
        b[q] = EMPTY


def _windows_seg(seg, c, counts):
    out = set()
    for s in range(5):
        w = seg[s:s + 5]
        if w.count(c) in counts and w.count(EMPTY) + w.count(c) == 5:
            out.update(k - 4 for k in range(s, s + 5) if seg[k] == EMPTY)
    return tuple(sorted(out))


def windows_cells(pos, p, c, counts):
    """Empty cells of the 5-windows along lines through p (an empty cell or c's stone)
    holding k of c's stones for k in counts and nothing else."""
    b = pos.b
    out = set()
    for d in pos.dirs:
        seg = bytes(b[p - 4 * d:p + 5 * d:d])
        for k in _cached((1, c, counts, seg), lambda: _windows_seg(seg, c, counts)):
            out.add(p + k * d)
    return out


def _black_points(s, c0):
    """Oracle-style five points of black around the black stone at index c0 of s:
    offsets k (|k| <= 4) of empty cells where black makes a run of exactly 5 holding c0."""
    out = []
    n = len(s)
    for k in range(-4, 5):
        j = c0 + k
        if k == 0 or s[j] != EMPTY:
            continue
        s[j] = BLACK
        lo = j
        while lo > 0 and s[lo - 1] == BLACK:
            lo -= 1
        hi = j
        while hi < n - 1 and s[hi + 1] == BLACK:
            hi += 1
        s[j] = EMPTY
        if hi - lo == 4 and lo <= c0 <= hi and lo > 0 and hi < n - 1:
            out.append(k)
    return out


def _black_line(seg):
    """seg: 11 cells, black to play the empty centre (index 5).  Returns (exact five,
    overline, the oracle's count of fours on this line, whether some empty cell within 4
    would make a straight four through the centre: a three shape, its four point's own
    legality and fives elsewhere not checked)."""
    s = bytearray(seg)
    s[5] = BLACK
    lo = 5
    while lo > 0 and s[lo - 1] == BLACK:
        lo -= 1
    hi = 5
    while hi < 10 and s[hi + 1] == BLACK:
        hi += 1
    run = hi - lo + 1
    edge = lo == 0 or hi == 10
    pts = _black_points(s, 5)
    fours = 1 if len(pts) == 2 and pts[1] - pts[0] == 5 else len(pts)
    three = False
    if not fours:
        for k in range(-4, 5):
            if k == 0 or s[5 + k] != EMPTY:
                continue
            s[5 + k] = BLACK
            p2 = _black_points(s, 5)
            s[5 + k] = EMPTY
            if len(p2) == 2 and p2[1] - p2[0] == 5:
                three = True
                break
    return run == 5 and not edge, run > 5 or edge, fours, three


def surely_legal(pos, i):
    """Cases where the renju oracle certainly allows black on the empty cell i: an exact
    five, or no overline, at most one four and at most one line shaped like a three."""
    b = pos.b
    over = False
    fours = threes = 0
    for d in pos.dirs:
        seg = bytes(b[i - 5 * d:i + 6 * d:d])
        five, ov, f, t = _cached((2, seg), lambda: _black_line(seg))
        if five:
            return True
        over = over or ov
        fours += f
        threes += t
    return not over and fours < 2 and threes < 2


class Board(gt.Pos):
    """gt.Pos that asks the renju oracle only where black's move is not surely legal
    (see surely_legal); free=True lets black play
    every empty cell (to tell which white wins rely on black's forbidden points)."""

    free = False

    def forbidden(self, i):
        if self.rule != 4 or self.free:
            return False
        key = (self.h, i)
        v = self.forb_cache.get(key)
        if v is None:
            v = not surely_legal(self, i) and self.oracle.forbidden(self.grid, *self.xy(i)) is not None
            self.forb_cache[key] = v
        return v

    def empties(self):
        return [self.idx(x, y) for y in range(self.n) for x in range(self.n) if self.grid[y][x] == 0]


def copy_board(pos, free=False):
    q = Board(pos.n, pos.rule, pos.oracle, pos.zob)
    q.free = free
    for c in (BLACK, WHITE):
        for i in pos.stones[c]:
            q.place(i, c)
    return q


# ---------------------------------------------------------------- threat helpers

def raw_t_local(pos, q, c):
    """Cells t on lines through c's stone q where c playing t has two or more five cells
    (legality not checked)."""
    b = pos.b
    out = set()
    for t in windows_cells(pos, q, c, (3, 4)):
        b[t] = c
        if five_count(pos, t, c) >= 2:
            out.add(t)
        b[t] = EMPTY
    return out


def raw_t_recheck(pos, s, c):
    return {t for t in s if pos.b[t] == EMPTY and len(fives_after(pos, t, c)) >= 2}


def raw_t_global(pos, c):
    out = set()
    for p in pos.stones[c]:
        out |= raw_t_local(pos, p, c)
    return out


def four_moves(pos, c):
    """Empty cells where c gets a five cell (legality not checked)."""
    cand = set()
    for p in pos.stones[c]:
        cand |= windows_cells(pos, p, c, (3,))
    return {q for q in cand if fives_after(pos, q, c)}


def five_points(pos, t, d):
    """Renju oracle's five points of black along d for a line through black's stone t:
    offsets k within 4 of t where black makes a run of exactly 5 containing t."""
    b = pos.b
    out = []
    for k in range(-4, 5):
        q = t + k * d
        if k == 0 or b[q] != EMPTY:
            continue
        b[q] = BLACK
        lo = 0
        while b[q + (lo - 1) * d] == BLACK:
            lo -= 1
        hi = 0
        while b[q + (hi + 1) * d] == BLACK:
            hi += 1
        b[q] = EMPTY
        if hi - lo == 4 and lo <= -k <= hi:
            out.append(k)
    return out


def makes_exact_five(pos, q):
    b = pos.b
    for d in pos.dirs:
        n = 1
        j = q + d
        while b[j] == BLACK:
            n += 1
            j += d
        j = q - d
        while b[j] == BLACK:
            n += 1
            j -= d
        if n == 5:
            return True
    return False


def pseudo_three(pos, t):
    """Black at t (legal, with a straight four): whether some other line through t is a
    three whose straight-four point is forbidden, so that a white stone freeing that
    point could make t a forbidden 4-3-3."""
    pos.place(t, BLACK)
    try:
        for d in pos.dirs:
            if five_points(pos, t, d):
                continue  # the four's own line (the oracle counts no three there)
            for k in range(-4, 5):
                i = t + k * d
                if k == 0 or pos.b[i] != EMPTY:
                    continue
                pos.b[i] = BLACK
                pts = five_points(pos, t, d)
                straight = len(pts) == 2 and pts[1] - pts[0] == 5
                five = straight and makes_exact_five(pos, i)
                pos.b[i] = EMPTY
                if straight and not five and pos.forbidden(i):
                    return True
        return False
    finally:
        pos.remove(t)


# ---------------------------------------------------------------- VCT solver

class Vct:
    """Exhaustive depth-limited VCT search for one attacker (see the module comment).

    att_node: attacker to move; it has no five cell; D = the defender's five cells;
    raw = cells where the attacker would get two or more five cells (maybe forbidden).
    def_node: defender to move; it has no five cell; A = the attacker's five cells."""

    def __init__(self, pos, att, cap=NODE_CAP):
        self.pos, self.att, self.dfd = pos, att, 3 - att
        self.memo = {}
        self.nodes = 0
        self.cap = cap
        self.renju_black = pos.rule == 4 and att == BLACK and not pos.free
        self.first = []  # moves to try first at the root (a hint, does not change results)
        self.best = {}   # attacker node -> the move that last won there (tried first)
        # another search's best moves, for positions that differ by one stone (hash xor)
        self.hint_best, self.hint_xor = None, 0

    def tick(self):
        self.nodes += 1
        if self.nodes > self.cap:
            raise CapExceeded()

    def lookup(self, key, depth):
        m = self.memo.get(key)
        if m is not None:
            if m[0] <= depth:
                return True
            if m[1] >= depth:
                return False
        return None

    def store(self, key, depth, win):
        win_d, fail_d = self.memo.get(key, (99, -1))
        if win:
            self.memo[key] = (min(win_d, depth), fail_d)
        else:
            self.memo[key] = (win_d, max(fail_d, depth))

    # ---- attacker to move

    def threats(self, raw):
        """Attacker's threat moves here (D empty, no legal cell of raw): list of
        (q, A, raw after q), fours first."""
        pos, att = self.pos, self.att
        cand = set()
        for p in pos.stones[att]:
            cand |= windows_cells(pos, p, att, (2, 3))
        if raw:  # renju, black: forbidden straight-four points that a move might free
            cand = set(pos.empties())
        fours, threes = [], []
        for q in sorted(cand):
            if not pos.legal(q, att):
                continue
            pos.place(q, att)
            try:
                a = fives_through(pos, q, att)
                nraw = raw_t_recheck(pos, raw, att) | raw_t_local(pos, q, att)
                if a:
                    fours.append((q, a, nraw))
                elif any(pos.legal(t, att) for t in nraw):
                    threes.append((q, a, nraw))
            finally:
                pos.remove(q)
        return fours + threes

    def att_node(self, depth, dset, raw):
        self.tick()
        if depth <= 0 or len(dset) >= 2:
            return False
        pos, att = self.pos, self.att
        key = (pos.h, 0)
        r = self.lookup(key, depth)
        if r is not None:
            return r
        if dset:
            q = next(iter(dset))
            if not pos.legal(q, att):
                win = False
            else:
                pos.place(q, att)
                try:
                    a = fives_through(pos, q, att)
                    nraw = raw_t_recheck(pos, raw, att) | raw_t_local(pos, q, att)
                    win = self.def_node(depth - 1, a, nraw)
                finally:
                    pos.remove(q)
        elif any(pos.legal(t, att) for t in raw):
            win = True  # a straight four (or legal double four) now
        elif depth == 1:
            # only a four whose five cell black may not block can still win
            win = False
            if self.dfd == BLACK and pos.rule == 4 and not pos.free:
                for q in four_moves(pos, att):
                    a = fives_after(pos, q, att)
                    if len(a) == 1:
                        pos.place(q, att)
                        try:
                            win = not pos.legal(next(iter(a)), BLACK)
                        finally:
                            pos.remove(q)
                        if win:
                            break
        else:
            moves = self.threats(raw)
            first = list(self.first)
            self.first = []
            if key in self.best:
                first.insert(0, self.best[key])
            elif self.hint_best:
                h = self.hint_best.get((pos.h ^ self.hint_xor, 0))
                if h is not None:
                    first.insert(0, h)
            if first:
                pri = {q: i for i, q in enumerate(first)}
                moves.sort(key=lambda m: pri.get(m[0], 999))
            win = False
            for q, a, nraw in moves:
                pos.place(q, att)
                try:
                    win = self.def_node(depth - 1, a, nraw)
                finally:
                    pos.remove(q)
                if win:
                    self.best[key] = q
                    break
        self.store(key, depth, win)
        return win

    # ---- defender to move

    def def_node(self, depth, aset, raw):
        self.tick()
        pos, att, dfd = self.pos, self.att, self.dfd
        if len(aset) >= 2:
            return True
        if aset:
            r = next(iter(aset))
            if not pos.legal(r, dfd):
                return True  # black must block on a forbidden point
            pos.place(r, dfd)
            try:
                return self.att_node(depth, fives_through(pos, r, dfd), raw_t_recheck(pos, raw, att))
            finally:
                pos.remove(r)
        if depth <= 0:
            return False
        tset = [t for t in raw if pos.legal(t, att)]
        if not tset:
            return False  # no threat: the defender is free
        key = (pos.h, 1)
        res = self.lookup(key, depth)
        if res is not None:
            return res
        cands = self.defences(tset, raw)
        win = True
        tried = set()
        for group in (cands, None):
            if group is None:  # the defender's fours, looked for only when needed
                group = four_moves(pos, dfd) - tried
            for m in sorted(group):
                tried.add(m)
                if pos.legal(m, dfd) and not self.defence_fails(m, depth, raw):
                    win = False
                    break
            if not win:
                break
        self.store(key, depth, win)
        return win

    def defences(self, tset, raw):
        """The defender's answers to the threat tset (its fours are added by the caller):
        the cells that stop every straight four."""
        pos, att, dfd = self.pos, self.att, self.dfd
        stop = None
        for t in tset:
            s = {t} | fives_after(pos, t, att)
            stop = s if stop is None else stop & s
        cands = set(stop)
        if self.renju_black and any(pseudo_three(pos, t) for t in tset):
            # a white stone anywhere might make a straight-four point forbidden
            for m in pos.empties():
                if m in cands:
                    continue
                pos.place(m, dfd)
                try:
                    if not any(pos.legal(t, att) for t in raw_t_recheck(pos, raw, att)):
                        cands.add(m)
                finally:
                    pos.remove(m)
        return cands

    def defence_fails(self, m, depth, raw):
        """The defender plays m against a threat: whether the attacker still wins."""
        pos, att, dfd = self.pos, self.att, self.dfd
        pos.place(m, dfd)
        try:
            dm = fives_through(pos, m, dfd)
            if len(dm) >= 2:
                return False
            if dm:  # a defender four: the attacker must block, the threat stands
                r = next(iter(dm))
                if not pos.legal(r, att):
                    return False
                pos.place(r, att)
                try:
                    nraw = raw_t_recheck(pos, raw, att) | raw_t_local(pos, r, att)
                    return self.def_node(depth, fives_through(pos, r, att), nraw)
                finally:
                    pos.remove(r)
            return self.att_node(depth, set(), raw_t_recheck(pos, raw, att))
        finally:
            pos.remove(m)

    # ---- roots (attacker to move, neither side with a five cell unless dset given)

    def wins(self, depth=MAX_VCT, dset=None):
        pos = self.pos
        if dset is None:
            dset = pos.all_fives(self.dfd)
        return self.att_node(depth, set(dset), raw_t_global(pos, self.att))

    def shortest(self, upto=MAX_VCT):
        for depth in range(1, upto + 1):
            if self.wins(depth):
                return depth
        return None

    def winning_moves(self):
        """Every first move winning within MAX_VCT (the root has no five cells)."""
        pos, att = self.pos, self.att
        raw = raw_t_global(pos, att)
        out = []
        for q, a, nraw in self.threats(raw):
            pos.place(q, att)
            try:
                if self.def_node(MAX_VCT - 1, a, nraw):
                    out.append(q)
            finally:
                pos.remove(q)
        return out


def vct_depth(pos, att, dset=None, first=(), cap=NODE_CAP, upto=MAX_VCT, hint=None):
    """(shortest VCT length of att, to move, or None; the search), by iterative
    deepening up to `upto` (short wins are found fast).  hint: (best-move table of
    another search, hash xor from there to here), for move ordering only."""
    v = Vct(pos, att, cap)
    if hint:
        v.hint_best, v.hint_xor = hint
    if dset is None:
        dset = pos.all_fives(3 - att)
    for depth in range(1, upto + 1):
        v.first = list(first)
        if v.wins(depth, dset):
            return depth, v
    return None, v


def has_vct(pos, att, dset=None, cap=NODE_CAP):
    return vct_depth(pos, att, dset, cap=cap)[0] is not None


# ---------------------------------------------------------------- examining positions


def examine_vct(pos, tomove, rng, need_fb):
    """(answers, note, shortest) for a vct case, or None."""
    if need_fb and (pos.rule != 4 or tomove != WHITE):
        return None
    if gt.has_vcf(pos, tomove):
        return None
    if not has_vct(pos, tomove, cap=SCREEN_CAP):
        return None
    v = Vct(pos, tomove)
    shortest = v.shortest()
    if shortest is None or shortest < 2:
        return None
    if shortest == 2 and rng.random() > KEEP_SHORT_VCT:
        return None
    winners = v.winning_moves()
    if not winners or len(winners) > MAX_ANSWERS:
        return None
    fb = pos.rule == 4 and tomove == WHITE and not has_vct(copy_board(pos, free=True), WHITE)
    if need_fb and not fb:
        return None
    note = "shortest VCT %d, %d winning first moves, no VCF" % (shortest, len(winners))
    if fb:
        note += "; uses black's forbidden points"
    return winners, note, shortest


def examine_defend(pos, tomove, rng):
    """(answers, note, opponent's shortest) for a defend case, or None."""
    opp = 3 - tomove
    if gt.has_vcf(pos, tomove):
        return None
    vcf = gt.has_vcf(pos, opp)
    if vcf and rng.random() > KEEP_VCF_DEFEND:
        return None
    opp_shortest, v0 = vct_depth(pos, opp, cap=SCREEN_CAP)
    if opp_shortest is None or opp_shortest < 2:
        return None
    try:
        own = has_vct(pos, tomove, cap=SCREEN_CAP)
        own_open = False
    except CapExceeded:
        own = False
        own_open = True  # decided below, once the position looks worth it
    if own:
        return None
    # First pass: the opponent's old win, replayed (its moves tried first), usually
    # survives a move m; the moves where it does not quickly are looked at exactly.
    open_ms = []
    for m in pos.near_empties(3):
        if not pos.legal(m, tomove):
            continue
        pos.place(m, tomove)
        try:
            v = Vct(pos, opp, SCREEN_CAP)
            v.hint_best, v.hint_xor = v0.best, pos.zob[tomove][m]
            try:
                refuted = v.wins(opp_shortest, fives_through(pos, m, tomove))
            except CapExceeded:
                refuted = False
        finally:
            pos.remove(m)
        if not refuted:
            open_ms.append(m)
            if len(open_ms) > 2 * MAX_DEFENCES:
                return None
    if own_open and has_vct(pos, tomove, cap=OWN_CAP):
        return None
    saving = []
    for m in open_ms:
        pos.place(m, tomove)
        try:
            d, _ = vct_depth(pos, opp, fives_through(pos, m, tomove),
                             hint=(v0.best, pos.zob[tomove][m]))
        finally:
            pos.remove(m)
        if d is None:
            saving.append(m)
    if not saving or len(saving) > MAX_DEFENCES:
        return None
    note = "opponent's shortest VCT if passed: %d (%s); %d saving move%s" % (
        opp_shortest, "VCF too" if vcf else "VCT only", len(saving), "" if len(saving) == 1 else "s")
    return saving, note, opp_shortest


def generate(oracle, targets=TARGETS):
    rng = random.Random(SEED)
    zobs = {}
    out = []
    seen = set()
    t0 = time.time()
    for rule, size, kind, want in targets:
        if size not in zobs:
            w = size + 2 * gt.PAD
            zr = random.Random(SEED + size)
            zobs[size] = {c: [zr.getrandbits(64) for _ in range(w * w)] for c in (BLACK, WHITE)}
        got = 0
        games = 0
        tk = time.time()
        while got < want:
            games += 1
            if games > 3000:
                log("giving up on", rule, size, kind, "at", got)
                break
            pos = Board(size, rule, oracle, zobs[size])
            plies = rng.randint(14, 44)
            for tomove in gt.random_game(pos, rng, plies):
                if gt.has_win_stone(pos):
                    break
                if pos.all_fives(BLACK) or pos.all_fives(WHITE):
                    continue
                key = (rule, size, pos.h)
                if key in seen:
                    continue
                pos.forb_cache.clear()
                try:
                    if kind == "defend":
                        case = examine_defend(pos, tomove, rng)
                    else:
                        case = examine_vct(pos, tomove, rng, kind == "vct-fb")
                except CapExceeded:
                    case = None
                if case is None:
                    continue
                seen.add(key)
                got += 1
                out.append((rule, size, KIND_TAG[kind], gt.copy_pos(pos), tomove, case))
                log("%s %d %s #%d game %d %.0fs: %s" % (RULE_TAG[rule], size, kind, got, games,
                                                      time.time() - t0, case[1]))
                break  # one position per game
        log("  %s %d %s: %d in %d games, %.0fs" % (RULE_TAG[rule], size, kind, got, games,
                                                   time.time() - tk))
    return out


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/tools/renju.py"
    oracle = gt.load_oracle(path)
    cases = generate(oracle)
    # names per (rule, size, kind), in order
    numbered = {}
    w = sys.stdout.write
    w("# VCT tactics positions for Rensa: forced wins by continuous threats (fours and open\n")
    w("# threes) and saving defences against them.\n")
    w("# GENERATED FILE - do not edit.  Regenerate from the repository root with:\n")
    w("#   python3 tests/data/gen_tactics_vct.py [/path/to/renju.py] > tests/data/tactics_vct.txt\n")
    w("# Verdicts come from the exhaustive VCT solver in the generator (up to %d attacker\n" % MAX_VCT)
    w("# moves; no VCF checked up to %d fours); renju forbidden points from the Gomocup\n" % gt.MAX_VCF)
    w("# referee's renju.py.  See the generator's docstring for the exact threat rules.\n")
    w("# kind vct: 'answers' = every first move winning by VCT within the limit; the side to\n")
    w("#   move has no VCF.\n")
    w("# kind defend: 'answers' = the only moves (within distance 3 of a stone) after which the\n")
    w("#   opponent has no VCT; every other such move loses to a VCT.\n")
    w("# Coordinates x,y are 0-based (x = column, y = row).\n")
    for rule, size, kind, pos, tomove, (answers, note, _) in cases:
        k = (rule, size, kind)
        numbered[k] = numbered.get(k, 0) + 1
        name = "%s%s-%s-%03d" % (RULE_TAG[rule], "" if size == 15 else "20", kind, numbered[k])
        w("\n# %s, %s to move: %s\n" % (RULE_NAME[rule], "black" if tomove == BLACK else "white", note))
        w("case %s\n" % name)
        w("rule %d\n" % rule)
        w("size %d\n" % size)
        w("black %s\n" % gt.stone_line(pos, BLACK))
        w("white %s\n" % gt.stone_line(pos, WHITE))
        w("tomove %s\n" % ("black" if tomove == BLACK else "white"))
        w("kind %s\n" % ("defend" if kind == "vctdef" else "vct"))
        w("answers %s\n" % " ".join("%d,%d" % pos.xy(q) for q in answers))
        w("end\n")
    counts = {}
    for c in cases:
        counts[(c[0], c[2])] = counts.get((c[0], c[2]), 0) + 1
    w("\n# totals: %s\n" % ", ".join("%s %s %d" % (RULE_NAME[r], "defend" if k == "vctdef" else k, v)
                                     for (r, k), v in sorted(counts.items())))


if __name__ == "__main__":
    main()
