#!/usr/bin/env python3
"""Generate tests/data/tactics_losses.txt: tactics positions from games Rensa LOST.

Usage (from the repository root):

    python3 tests/data/gen_tactics_losses.py [--oracle /path/to/renju.py] \
        [--per-game 6] GAMES.jsonl... > tests/data/tactics_losses.txt

GAMES.jsonl are the referee's game records, one JSON object a line, with the fields
"moves" (space-separated "x,y", black first, the opening stones included),
"opening_plies", "rule", "size", "winner" ("engine1"/"engine2"), "black"/"white" (which
engine played which colour), "black_name"/"white_name" (Rensa's name starts with
"Rensa", in any case), "reason", "game".  Only games that Rensa lost by the opponent's five are used,
under rules 0 (freestyle), 1 (standard) and 4 (renju); other rules (caro, 8) are skipped.
The oracle (default /work/shared/tools/renju.py) judges black's forbidden points under
renju.  Python 3 standard library only; the output depends only on the records, the
oracle and the limits below (no randomness, no clocks): files in the order given, games
in file order, cases numbered per rule and size.

Every verdict comes from the exhaustive solvers of the two generators beside this file,
imported, not copied: the VCF solver of gen_tactics.py (up to gen_tactics.MAX_VCF = 10
fours, node cap gen_tactics.NODE_CAP) and the VCT solver of gen_tactics_vct.py (fours
and open threes, up to gen_tactics_vct.MAX_VCT = 6 attacker moves, its node caps), whose
docstrings give the exact threat rules.  A position whose search hits a node cap is
dropped, so every verdict written is exact within the depth limits.

Each game is replayed from the end of its opening to the move before the winning five.
Positions where either side has a five cell (a four on the board) are passed over: the
reply there is forced.  The rest are examined:

  winner to move (kind vcf or vct): the winner has a forced win.
    vcf  it wins by VCF, shortest length at least 2.  'answers' = every first move that
         wins by VCF within MAX_VCF together with every first move that wins by VCT
         within MAX_VCT (a winning three counts: the engine need not choose the fours).
    vct  it has no VCF and wins by VCT in at least 2 moves: gen_tactics_vct.examine_vct,
         'answers' = every first move winning by VCT within MAX_VCT.
    Positions with more than MAX_ANSWERS winning first moves are passed over.
  Rensa to move (kind defend): gen_tactics_vct.examine_defend: if Rensa passed, the
    winner would win by VCT in at least 2 moves; Rensa has no VCF and no VCT of its own;
    and only 1 to 3 of its moves (every empty cell within distance 3 of a stone is
    tried) leave the winner without a VCT within MAX_VCT.  Positions where no move
    saves are passed over.  Every other tried move is proved to lose; a listed move is
    one not proved to lose within the limits.

Choice per game (at most --per-game cases): first the earliest winner-to-move position
with a forced win (the ply where the solver first sees the winner's win), then the Rensa
position just before it (the move that let the win in), then the other cases of the game
by ply, earliest first.  Positions already written (same rule, size, stones and side to
move) are not written twice.  Each case's comment gives its source file, game number and
ply (stones on the board), the winner's name, and what the solver found.
"""

import argparse
import importlib.util
import json
import os
import random
import sys
import time

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("gen_tactics_vct", os.path.join(_here, "gen_tactics_vct.py"))
vct = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(vct)
gt = vct.gt  # gen_tactics.py, as loaded (and widened) by gen_tactics_vct.py
CapExceeded = gt.CapExceeded
EMPTY, BLACK, WHITE = gt.EMPTY, gt.BLACK, gt.WHITE

MAX_ANSWERS = vct.MAX_ANSWERS  # vcf/vct: at most this many winning first moves
PER_GAME = 6
MAX_WIN_CASES = 3       # winner-to-move cases examined per game (earliest first)
MAX_DEFEND_CASES = 3    # Rensa-to-move cases examined per game
SCREEN_CAP = 40000      # nodes: is there a win at all (iterative deepening)
WIN_CAP = 300000        # nodes: listing every winning first move of a win found
# gen_tactics_vct.examine_defend reads these two at call time: raised for real games,
# whose threats run deeper than those of the random positions it was written for
vct.SCREEN_CAP = 20000
vct.OWN_CAP = 40000
RULE_NAME = {0: "freestyle", 1: "standard", 4: "renju"}
SEED = 0x4C4F5353  # "LOSS": Zobrist keys only


class KeepAll:
    """Stands in for the random generators of gen_tactics_vct's examine_* functions,
    which pass over part of the short wins at random: here every position is kept."""

    @staticmethod
    def random():
        return 0.0


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def tag(rule, size):
    if rule == 0:
        return "fs%d" % size
    base = {1: "std", 4: "renju"}[rule]
    return base if size == 15 else "%s%d" % (base, size)


def lost_games(path):
    """(game record, Rensa's colour) for every game Rensa lost by a five, rules 0/1/4."""
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            g = json.loads(line)
            if g.get("rule") not in RULE_NAME or g.get("reason") != "five":
                continue
            rb = g.get("black_name", "").lower().startswith("rensa")
            rw = g.get("white_name", "").lower().startswith("rensa")
            if rb == rw:
                continue  # self-play, or no Rensa
            winner = BLACK if g.get("winner") == g.get("black") else WHITE
            rensa = BLACK if rb else WHITE
            if g.get("winner") not in ("engine1", "engine2") or winner == rensa:
                continue
            yield g, rensa


def winning_moves(pos, att):
    """gen_tactics_vct's Vct.winning_moves (every first move of att winning by VCT within
    MAX_VCT; no five cell on the board), one search sharing its memo, that gives up
    (None) once more than MAX_ANSWERS have won.  Raises CapExceeded past WIN_CAP nodes."""
    v = vct.Vct(pos, att, WIN_CAP)
    out = []
    for q, a, nraw in v.threats(vct.raw_t_global(pos, att)):
        pos.place(q, att)
        try:
            if v.def_node(vct.MAX_VCT - 1, a, nraw):
                out.append(q)
        finally:
            pos.remove(q)
        if len(out) > MAX_ANSWERS:
            return None
    return out


def examine_win(pos, att):
    """(kind, answers, note) when att (to move) has a forced win, else None.  The same
    tests as gen_tactics_vct.examine_vct (and gen_tactics' vcf kind), with the larger
    WIN_CAP for listing the winning first moves of a win the screen has found."""
    if gt.has_vcf(pos, att):
        shortest, winners = gt.vcf_root(pos, att)
        if shortest is None or shortest < 2 or not winners:
            return None
        if len(winners) > MAX_ANSWERS:
            return None
        allw = winning_moves(pos, att)
        if allw is None:
            return None
        extra = sorted(set(allw) - set(winners))
        answers = sorted(winners) + extra
        if len(answers) > MAX_ANSWERS:
            return None
        note = "shortest VCF %d, %d winning first move%s by VCF" % (
            shortest, len(winners), "" if len(winners) == 1 else "s")
        if extra:
            note += " + %d more by VCT" % len(extra)
        return "vcf", answers, note
    shortest, _ = vct.vct_depth(pos, att, cap=SCREEN_CAP)
    if shortest is None or shortest < 2:
        return None
    winners = winning_moves(pos, att)
    if not winners:
        return None
    note = "shortest VCT %d, %d winning first move%s, no VCF" % (
        shortest, len(winners), "" if len(winners) == 1 else "s")
    if pos.rule == 4 and att == WHITE:
        try:
            if not vct.has_vct(vct.copy_board(pos, free=True), WHITE, cap=SCREEN_CAP):
                note += "; uses black's forbidden points"
        except CapExceeded:
            pass  # a note only: left out when undecided
    return "vct", sorted(winners), note


def examine(pos, tomove, rensa):
    """A case (kind, answers, note) for this position, or None (also when a cap is hit)."""
    if pos.all_fives(BLACK) or pos.all_fives(WHITE):
        return None
    pos.forb_cache.clear()
    try:
        if tomove == rensa:
            r = vct.examine_defend(pos, tomove, KeepAll)
            return r and ("defend", sorted(r[0]), r[1])
        return examine_win(pos, tomove)
    except CapExceeded:
        return None


def examine_game(g, rensa, zob, oracle, per_game):
    """The chosen cases of one lost game, in order of choice: list of (ply, kind, pos
    copy, tomove, answers, note)."""
    rule, size = g["rule"], g["size"]
    moves = [tuple(int(v) for v in m.split(",")) for m in g["moves"].split()]
    start = int(g.get("opening_plies", 0))
    pos = vct.Board(size, rule, oracle, zob)
    positions = {}  # ply -> position with that many stones (k >= start)
    for k, (x, y) in enumerate(moves):
        if k >= start:
            positions[k] = vct.copy_board(pos)
        pos.place(pos.idx(x, y), BLACK if k % 2 == 0 else WHITE)
    side = {k: BLACK if k % 2 == 0 else WHITE for k in positions}
    found = []

    def take(k):
        p = positions[k]
        case = examine(p, side[k], rensa)
        if not case:
            return None
        kind, answers, note = case
        x, y = moves[k]
        played = p.idx(x, y)
        note += "; %s played %d,%d%s" % ("Rensa" if side[k] == rensa else "the winner", x, y,
                                         "" if played in answers else " (not an answer)")
        found.append((k, kind, p, side[k], answers, note))
        return played in answers

    # the winner's forced wins, from the first one the solver sees, earliest first
    wins = 0
    first_win = None
    missed = []  # plies after a winner move that was no answer (a chance for Rensa)
    for k in sorted(positions):
        if side[k] == rensa or wins >= MAX_WIN_CASES:
            continue
        n = len(found)
        ok = take(k)
        if len(found) > n:
            wins += 1
            if first_win is None:
                first_win = k
            if not ok and k + 1 in positions:
                missed.append(k + 1)
    # Rensa's saving moves: just before the first win, after the winner's misses, then
    # earlier threats, latest first
    rensa_plies = sorted((k for k in positions if side[k] == rensa), reverse=True)
    if first_win is not None:
        before = [k for k in rensa_plies if k < first_win]
    else:
        before = rensa_plies
    order = before[:1] + missed + before[1:]
    defends = 0
    for k in order:
        if defends >= MAX_DEFEND_CASES:
            break
        n = len(found)
        take(k)
        defends += len(found) > n
    # choice: the first win, the Rensa move before it, the rest by ply
    head = [] if first_win is None else [first_win, first_win - 1]
    rank = {k: i for i, k in enumerate(head)}
    found.sort(key=lambda c: (rank.get(c[0], len(head)), c[0]))
    return found[:per_game]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle", default="/work/shared/tools/renju.py")
    ap.add_argument("--per-game", type=int, default=PER_GAME)
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    oracle = gt.load_oracle(args.oracle)
    zobs = {}
    seen = set()
    t0 = time.time()
    cases = []  # (tag, rule, size, file, game, ply, kind, pos, tomove, answers, note, winner name)
    for path in args.files:
        base = os.path.basename(path)
        for g, rensa in lost_games(path):
            rule, size = g["rule"], g["size"]
            if size not in zobs:
                w = size + 2 * gt.PAD
                zr = random.Random(SEED + size)
                zobs[size] = {c: [zr.getrandbits(64) for _ in range(w * w)] for c in (BLACK, WHITE)}
            wname = g["white_name"] if rensa == BLACK else g["black_name"]
            got = 0
            for ply, kind, pos, tomove, answers, note in examine_game(g, rensa, zobs[size], oracle,
                                                                     args.per_game):
                key = (rule, size, pos.h, tomove)
                if key in seen:
                    continue
                if got >= args.per_game:
                    break
                seen.add(key)
                got += 1
                cases.append((tag(rule, size), rule, size, base, g.get("game"), ply, kind, pos,
                              tomove, answers, note, wname))
            log("%s game %s (%s %d): %d cases, %d so far, %.0fs" % (
                base, g.get("game"), RULE_NAME[rule], size, got, len(cases), time.time() - t0))
    order = {}
    for c in cases:
        order.setdefault(c[0], len(order))
    cases.sort(key=lambda c: order[c[0]])  # stable: file, game, choice order within a tag
    w = sys.stdout.write
    w("# Tactics positions from games Rensa lost to stronger engines: the winner's forced\n")
    w("# wins (VCF / VCT) and Rensa's only saving moves just before them.\n")
    w("# GENERATED FILE - do not edit.  Regenerate from the repository root with:\n")
    w("#   python3 tests/data/gen_tactics_losses.py GAMES.jsonl... > tests/data/tactics_losses.txt\n")
    w("# Sources: %s\n" % " ".join(os.path.basename(p) for p in args.files))
    w("# Verdicts from the exhaustive solvers of gen_tactics.py (VCF up to %d fours) and\n" % gt.MAX_VCF)
    w("# gen_tactics_vct.py (VCT up to %d attacker moves); renju forbidden points from the\n" % vct.MAX_VCT)
    w("# Gomocup referee's renju.py.  See the generator's docstring for the exact kinds.\n")
    w("# kind vcf: 'answers' = every first move winning by VCF or by VCT within the limits.\n")
    w("# kind vct: 'answers' = every first move winning by VCT within the limit; no VCF.\n")
    w("# kind defend: 'answers' = the only moves (within distance 3 of a stone) after which the\n")
    w("#   opponent has no VCT; every other such move loses to a VCT.\n")
    w("# 'ply' = stones on the board.  Coordinates x,y are 0-based (x = column, y = row).\n")
    numbered = {}
    counts = {}
    for t, rule, size, base, game, ply, kind, pos, tomove, answers, note, wname in cases:
        numbered[t] = numbered.get(t, 0) + 1
        counts[(rule, size, kind)] = counts.get((rule, size, kind), 0) + 1
        side = "black" if tomove == BLACK else "white"
        who = "winner %s" % wname if kind != "defend" else "Rensa (lost to %s)" % wname
        w("\n# %s game %s ply %d, %s %d, %s to move, %s: %s\n" % (
            base, game, ply, RULE_NAME[rule], size, side, who, note))
        w("case loss-%s-%03d\n" % (t, numbered[t]))
        w("rule %d\n" % rule)
        w("size %d\n" % size)
        w("black %s\n" % gt.stone_line(pos, BLACK))
        w("white %s\n" % gt.stone_line(pos, WHITE))
        w("tomove %s\n" % side)
        w("kind %s\n" % kind)
        w("answers %s\n" % " ".join("%d,%d" % pos.xy(q) for q in answers))
        w("end\n")
    w("\n# totals: %s\n" % ", ".join("%s %d %s %d" % (RULE_NAME[r], s, k, v)
                                     for (r, s, k), v in sorted(counts.items())))
    log("total %d cases" % len(cases))


if __name__ == "__main__":
    main()
