//! The node search: principal-variation alpha-beta with static win checks, the
//! transposition table, pruning before the moves (reverse futility, razoring, null move)
//! and a move loop with late-move reductions and move-count pruning.

use super::movepick::{First, MovePicker};
use super::params::{
    ALPHA_RAISE_MAX_DEPTH, ALPHA_RAISE_MIN_DEPTH, DEFEND_EXT_MAX_PLY, FUTILITY_MAX_DEPTH,
    LATE_QUIET_MAX_PLIES,
};
use super::tt::{Bound, Hit};
use super::{
    history_bonus, history_update, Depth, Focus, NodeKind, Scored, Verdict, Worker,
    EXACT_MAX_EMPTY, IIR_MIN_DEPTH, MAX_MALUS_MOVES, MAX_PLY, NO_EVAL, ONE_PLY, RAZOR_MAX_DEPTH,
};
use crate::board::{Color, Pos};
use crate::eval::{is_mate_score, mate_in, mated_in, Evaluator, Score, INFINITE, WIN_MIN};
use crate::pattern::Threat;

/// What a node knows once its static checks are done: the input to pruning and the loop.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) depth: Depth,
    pub(super) ply: usize,
    pub(super) kind: NodeKind,
    /// The one cell that blocks the opponent's five.
    forced: Option<Pos>,
    /// Facing an open-four threat: only its answers are searched.
    defend_only: bool,
    /// Forced or defending: no pruning on the static value.
    pub(super) threatened: bool,
    /// Few cells left ([`EXACT_MAX_EMPTY`]): every move at full depth.
    pub(super) exact: bool,
    improving: bool,
    /// The evaluation as the table keeps it, before corrections.
    raw_eval: Score,
    pub(super) static_eval: Score,
    pub(super) tt_move: Option<Pos>,
    /// On a principal variation now or in an earlier search (`Worker::tt_pv`).
    pub(super) tt_pv: bool,
    /// What the singular test adds to the table's move's depth (negative: takes off).
    tt_ext: Depth,
}

/// The late-move pruning of a node's move loop, worked out once before it.
struct LateMoves {
    /// Moves this late in the order are skipped unless they make a four.
    move_count: usize,
    /// Depth left in whole plies.
    plies: i32,
    /// Near the leaves and far below alpha: every late quiet move is skipped.
    futile: bool,
    /// A late quiet move whose reduced depth is this many plies or less is skipped when the
    /// static value plus [`LateMoves::margin`] per ply of it (plus one) is at most alpha;
    /// negative: never ([`Params::fut_lmr_plies`]).
    fut_plies: i32,
    /// Alpha less the static value: what a move's futility margin must reach.
    gap: Score,
    margin: Score,
}

impl LateMoves {
    fn new<E: Evaluator>(w: &Worker<'_, E>, n: &Node, alpha: Score) -> LateMoves {
        LateMoves {
            move_count: w.move_counts.get(n.depth, n.improving),
            plies: n.depth / ONE_PLY,
            futile: !n.kind.is_pv()
                && !n.threatened
                && n.depth <= FUTILITY_MAX_DEPTH
                && n.static_eval + w.params.futility_margin * n.depth / ONE_PLY <= alpha,
            fut_plies: if n.kind.is_pv()
                || n.threatened
                || w.params.fut_lmr_plies == 0
                || is_mate_score(alpha)
                || is_mate_score(n.static_eval)
            {
                -1
            } else {
                w.params.fut_lmr_plies
            },
            gap: alpha - n.static_eval,
            margin: w.params.futility_margin,
        }
    }

    /// Whether move `i` of the node, `mv`, is skipped. Asked only once a move that does not
    /// lose is in hand, and not at a threatened or exact node.
    fn prunes<E: Evaluator>(
        &self,
        w: &Worker<'_, E>,
        n: &Node,
        i: usize,
        mv: Pos,
        quiet: bool,
    ) -> bool {
        let me = w.board.side();
        // Move-count pruning: moves this late in the order are skipped unless they make a
        // four; fewer when not improving (+31, -4..+67, at 100 ms a move). Open threes pruned
        // too: making them exempt solved no more of `tests/data/tactics_avoid*.txt` (47 of
        // 113 at 200 ms, the shipped build 51 to 56).
        if n.ply > 0 && i >= self.move_count && w.board.threat(me, mv) < Threat::Block4 {
            return true;
        }
        // Late quiet moves near the leaves almost never matter. (Skipping those with a bad
        // history at depth <= 3 as well, session 21, commit 62d700e: below -500 a ply -8
        // [-18, +1], below -2,000 a ply +5 [-0, +10] (it rarely fires), at 40,000 nodes a
        // move. Session 22, commit 40a24ad, the same way: moves with no class for either
        // colour skipped below 4 plies, Rapfi's trivial-move pruning, -2 [-7, +4]; facing an
        // open-four threat, our own delaying fours far from both last moves skipped below 4
        // plies and else up to 3 plies more reduced -10 [-23, +2], the reduction alone -14
        // [-27, -1].)
        let late =
            self.plies <= LATE_QUIET_MAX_PLIES && i >= (3 + self.plies * self.plies) as usize;
        if quiet && !n.kind.is_pv() && (late || self.futile) {
            return true;
        }
        // Futility by the move's own reduced depth, as the search would reduce it (less its
        // history's share): a ply of reduction lowers the margin a ply's worth.
        if quiet && self.fut_plies >= 0 && self.gap > 0 {
            let d = ((n.depth / ONE_PLY) as usize).min(63);
            let hist = w.history[mv.index()][me.index()];
            let r = w.reductions[d][i.min(63)] - hist / w.params.lmr_history_div * ONE_PLY;
            return futile_when_reduced(n.depth, r, self.fut_plies, self.margin, self.gap);
        }
        false
    }
}

/// Whether a quiet move at a node of `depth`, reduced by `r`, is futile: its reduced depth
/// is at most `cap` plies and the margin for that depth (plus a ply) does not cover `gap`,
/// alpha less the static value. A negative reduction counts as none.
fn futile_when_reduced(depth: Depth, r: Depth, cap: i32, margin: Score, gap: Score) -> bool {
    let plies = ((depth - ONE_PLY - r.max(0)) / ONE_PLY).max(0);
    plies <= cap && margin * (plies + 1) <= gap
}

impl<E: Evaluator> Worker<'_, E> {
    /// The node search. Returns a score from the side to move's view.
    pub(super) fn search(
        &mut self,
        depth: Depth,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        kind: NodeKind,
    ) -> Score {
        debug_assert!(alpha < beta);
        // Step 1. Initialise the node.
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_value();
        }
        if self.board.is_full() {
            return 0;
        }
        // Step 2. Static win checks from the threat counts.
        let forced = match self.static_verdict(ply) {
            Verdict::Decided(score) => return score,
            Verdict::Forced(p) => Some(p),
            Verdict::Open => None,
        };

        // Step 3. Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table. A singular test searches the node without its
        // table's move: the entry's bound is not for that search, and nothing it finds is
        // stored.
        let key = self.board.hash();
        let excluding = self.singular[ply].is_some();
        let hit = match self.probe_table(key, depth, alpha, beta, ply, kind) {
            Ok(hit) => hit,
            Err(score) => return score,
        };
        // Step 4b. The position database, near the root.
        if self.book.is_some() && !excluding {
            if let Some(score) = self.probe_book(depth, alpha, beta, ply, kind.is_pv()) {
                return score;
            }
        }

        // Step 5. Below the horizon: the threat quiescence. (A full VCF probe here cost more
        // depth than it found wins: about -90 Elo at 100 ms a move in self-play. Searching
        // the answers of a side facing an open three at the horizon instead of standing pat,
        // session 21, commit 62d700e: -14 [-27, -2] at 40,000 nodes a move.) A forced
        // block below the horizon keeps its negative depth: it is part of the quiescence.
        if depth <= 0 && forced.is_none() {
            return self.quiesce(depth, alpha, beta, ply);
        }
        let mut node = self.node(depth, ply, kind, forced, hit);
        if excluding {
            let (best, _) = match self.search_moves(&node, alpha, beta) {
                Ok(found) => found,
                Err(score) => return score,
            };
            return best;
        }

        // Step 6. Pruning on the static value.
        if let Some(score) = self.prune_before_moves(&node, alpha, beta) {
            return score;
        }
        // Step 6d. The singular test of the table's move.
        if let Some(h) = hit {
            match self.singular_test(&node, &h, beta) {
                Ok(ext) => node.tt_ext = ext,
                Err(score) => return score,
            }
        }

        // Steps 7 and 8. The moves.
        let (best, best_move) = match self.search_moves(&node, alpha, beta) {
            Ok(found) => found,
            Err(score) => return score,
        };

        // Step 9. Store the result.
        self.store_result(&node, key, alpha, beta, best, best_move);
        best
    }

    /// Step 4: the table's entry for the node, or `Err(score)` when its bound decides the
    /// node (not at PV nodes).
    fn probe_table(
        &mut self,
        key: u64,
        depth: Depth,
        alpha: Score,
        beta: Score,
        ply: usize,
        kind: NodeKind,
    ) -> Result<Option<Hit>, Score> {
        let hit = self.tt.probe(key, ply);
        // in a singular test the node keeps its own mark, and the bound is not for it
        let excluding = self.singular[ply].is_some();
        if !excluding {
            self.tt_pv[ply] = kind.is_pv() || hit.is_some_and(|h| h.pv);
        }
        self.tt_pv[ply + 1] = false;
        if let Some(h) = hit {
            if !kind.is_pv() && !excluding && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    if let Some(mv) = h.mv.filter(|_| h.score >= beta && self.params.tt_hist > 0) {
                        self.reward_tt_move(mv, depth);
                    }
                    return Err(h.score);
                }
            }
        }
        Ok(hit)
    }

    /// What a node above the horizon knows before its moves: the threat it faces, its static
    /// value, whether it improves, and its depth after hindsight and internal iterative
    /// reduction.
    fn node(
        &mut self,
        depth: Depth,
        ply: usize,
        kind: NodeKind,
        forced: Option<Pos>,
        hit: Option<Hit>,
    ) -> Node {
        let me = self.board.side();
        let defend_only = forced.is_none()
            && !self.caro
            && self.board.count(me.opponent(), Threat::Flex4) > 0
            && self.board.count(me, Threat::Flex4) == 0;
        // (The table's score in place of this where its bound says the static value is too
        // low or too high, as Stockfish refines its eval, played +2 [-20, +24]: 500 games,
        // freestyle, 100 ms a move.)
        let raw_eval = match hit {
            Some(h) => h.eval,
            None => self.static_value(),
        };
        let static_eval = self.corrected(raw_eval);
        let threatened = forced.is_some() || defend_only;
        self.evals[ply] = if threatened { NO_EVAL } else { static_eval };
        if self.singular[ply].is_none() {
            self.reward_by_eval(ply);
        }
        let improving = ply >= 2
            && self.evals[ply] != NO_EVAL
            && (self.evals[ply - 2] == NO_EVAL || self.evals[ply] > self.evals[ply - 2]);
        // Internal iterative reduction: a node the table knows nothing of is searched
        // shallower (`Params::iir_pv`, `iir_nonpv`: a ply each); its ordering is poor, and
        // the next iteration comes back with a move. Not near a full board, which is exact.
        let exact = self.board.empty_count() <= EXACT_MAX_EMPTY;
        let tt_move = hit.and_then(|h| h.mv);
        let mut depth = depth;
        if !threatened && !exact {
            depth = self.hindsight(depth, ply);
            if tt_move.is_none() && depth >= IIR_MIN_DEPTH {
                depth -= if kind.is_pv() {
                    self.params.iir_pv
                } else {
                    self.params.iir_nonpv
                };
            }
        }
        Node {
            depth,
            ply,
            kind,
            forced,
            defend_only,
            threatened,
            exact,
            improving,
            raw_eval,
            static_eval,
            tt_move,
            tt_pv: self.tt_pv[ply],
            tt_ext: 0,
        }
    }

    /// Step 9: the node's result into the table, the histories of a node that failed low,
    /// and the evaluation's corrections.
    fn store_result(
        &mut self,
        n: &Node,
        key: u64,
        alpha: Score,
        beta: Score,
        best: Score,
        best_move: Option<Pos>,
    ) {
        let (depth, ply) = (n.depth, n.ply);
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if bound == Bound::Upper && self.params.prior_bonus > 0 {
            self.reward_prior(ply, depth);
        }
        let tt_pv = self.settle_tt_pv(n.tt_pv, bound, depth, ply);
        self.tt
            .store(key, ply, best_move, best, n.raw_eval, depth, bound, tt_pv);
        // What the search found the static value off by, where that is about the position
        // and not a forcing line: no threat to answer, no four played, a bound that says
        // which side of the static value the truth is on.
        let me = self.board.side();
        // in the old order, so that a node already ruled out reads no threat class
        let skip = n.threatened
            || n.exact
            || is_mate_score(best)
            || is_mate_score(n.raw_eval)
            || best_move.is_some_and(|m| self.board.threat(me, m) >= Threat::Block4);
        let bound_says = match bound {
            Bound::Lower => best > n.static_eval,
            Bound::Upper => best < n.static_eval,
            Bound::Exact => true,
        };
        if !skip && bound_says {
            self.update_correction(best - n.raw_eval, depth);
        }
    }

    /// Stockfish's hindsight depth: a node reached by a move reduced three plies or more
    /// gets a ply back when the move did not worsen its mover's static value; one reduced
    /// two or more loses a ply when the move cost its mover more than
    /// [`Params::hindsight`](super::Params::hindsight) (0: off).
    pub(super) fn hindsight(&self, depth: Depth, ply: usize) -> Depth {
        let margin = self.params.hindsight;
        if margin == 0 || ply == 0 || self.evals[ply - 1] == NO_EVAL {
            return depth;
        }
        let (r, sum) = (self.prior_r[ply], self.evals[ply] + self.evals[ply - 1]);
        if r >= 3 * ONE_PLY && sum <= 0 {
            depth + ONE_PLY
        } else if r >= 2 * ONE_PLY && depth >= 2 * ONE_PLY && sum > margin {
            depth - ONE_PLY
        } else {
            depth
        }
    }

    /// The history of the quiet move that led here moves by how much it changed the static
    /// value (Stockfish's): the two sides' values summed, less their running mean (the
    /// tempo of having the move), negated and scaled by [`Params::eval_hist`].
    pub(super) fn reward_by_eval(&mut self, ply: usize) {
        if self.params.eval_hist == 0 {
            return;
        }
        let Some((prev, c)) = self.quiet_move_into(ply) else {
            return;
        };
        let sum = (self.evals[ply - 1] + self.evals[ply]).clamp(-4000, 4000) * 16;
        let mean = *self.eval_pair_mean.get_or_insert(sum);
        self.eval_pair_mean = Some(mean + (sum - mean) / 256);
        let bonus = ((mean - sum) / 16 * self.params.eval_hist / 16).clamp(-2000, 2000);
        history_update(&mut self.history[prev.index()][c.index()], bonus);
    }

    /// The move into the node at `ply` and who played it, when it was quiet: neither this
    /// node nor its parent was threatened (a four or an open three threatens), and it was
    /// no pass.
    fn quiet_move_into(&self, ply: usize) -> Option<(Pos, Color)> {
        if ply == 0 || self.evals[ply] == NO_EVAL || self.evals[ply - 1] == NO_EVAL {
            return None;
        }
        self.board.last_move().filter(|(p, _)| !p.is_none())
    }

    /// Whether `mv` makes or blocks less than an open three for either side.
    #[inline]
    fn is_quiet(&self, mv: Pos) -> bool {
        let me = self.board.side();
        self.board.threat(me, mv) < Threat::Flex3
            && self.board.threat(me.opponent(), mv) < Threat::Flex3
    }

    /// A cut by the table's bound: its move, when quiet, gets a share of a cut-off's bonus.
    fn reward_tt_move(&mut self, mv: Pos, depth: Depth) {
        let me = self.board.side();
        if !self.board.is_legal(mv) || !self.is_quiet(mv) {
            return;
        }
        let bonus = history_bonus(depth) * self.params.tt_hist / 100;
        history_update(&mut self.history[mv.index()][me.index()], bonus);
    }

    /// A node that failed low: no answer to the opponent's quiet move into it reached
    /// alpha, so that move gets a share of a cut-off's bonus in the opponent's history.
    /// Quiet: neither node was threatened (a four or an open three threatens).
    pub(super) fn reward_prior(&mut self, ply: usize, depth: Depth) {
        let Some((prev, c)) = self.quiet_move_into(ply) else {
            return;
        };
        let bonus = history_bonus(depth) * self.params.prior_bonus / 100;
        history_update(&mut self.history[prev.index()][c.index()], bonus);
    }

    /// The PV mark a node stores, from the one it had and how its search ended: a node that
    /// did not fail high under a marked node joins the PV's subtree (the move into it was
    /// probably good); one that failed high on a move whose node is unmarked leaves it. Only
    /// from 4 plies: near the leaves the mark would spread too far.
    fn settle_tt_pv(&mut self, tt_pv: bool, bound: Bound, depth: Depth, ply: usize) -> bool {
        let mut tt_pv = tt_pv;
        if bound != Bound::Lower {
            tt_pv |= ply > 0 && self.tt_pv[ply - 1] && depth > 3 * ONE_PLY;
        } else if depth > 3 * ONE_PLY {
            tt_pv &= self.tt_pv[ply + 1];
        }
        self.tt_pv[ply] = tt_pv;
        tt_pv
    }

    /// Step 6: a value for the node without searching its moves, when its static value is
    /// far enough from the window.
    fn prune_before_moves(&mut self, n: &Node, alpha: Score, beta: Score) -> Option<Score> {
        if n.kind.is_pv() || n.threatened || n.exact {
            return None;
        }
        let opp = self.board.side().opponent();
        // 6a. Reverse futility: far enough above beta that the opponent's best reply at this
        // depth is not expected to bring it back (+67 +/- 33 Elo at 100 ms a move in a
        // prototype on 0.2). Caro searches without the four shortcuts, so `threatened`
        // misses a four there: the counts are asked directly. Not at a node that is or was
        // on a principal variation where `Params::rfp_no_ttpv` says so (every rule but caro;
        // freestyle +42 [+13, +72], standard +40 [+10, +71] over 400 games at 200 ms), as
        // Stockfish: there a wrong cut costs the most.
        if !(n.tt_pv && self.params.rfp_no_ttpv != 0)
            && self.board.count(opp, Threat::Five) == 0
            && self.board.count(opp, Threat::Flex4) == 0
            && !is_mate_score(n.static_eval)
            && !is_mate_score(beta)
            && n.static_eval
                - self.params.rfp_margin * (n.depth - ONE_PLY - n.improving as i32 * ONE_PLY).max(0)
                    / ONE_PLY
                >= beta
        {
            return Some(n.static_eval);
        }
        // 6b. Razoring: far below alpha near the leaves, only a four could save the node,
        // and the quiescence tries exactly those.
        if n.depth <= RAZOR_MAX_DEPTH
            && !is_mate_score(alpha)
            && n.static_eval + self.params.razor_margin * n.depth / ONE_PLY < alpha
        {
            let v = self.quiesce(0, alpha, alpha + 1, n.ply);
            if self.aborted {
                return Some(0);
            }
            if v <= alpha {
                return Some(v);
            }
        }
        // 6c. Null move: a pass, when the opponent cannot even make a four, and a reduced
        // search still fails high; from `Params::null_min_depth` plies on.
        if n.depth >= self.params.null_min_depth * ONE_PLY && n.static_eval >= beta {
            return self.null_move(n.depth, beta, n.ply, n.kind.later_child());
        }
        None
    }

    /// Step 7: the first stage of the node's moves (see [`MovePicker`]): a forced block;
    /// else the table's move, when it may be played here; else all of them.
    fn first_stage(&self, n: &Node, focus: Focus) -> First {
        if let Some(p) = n.forced {
            return First::Forced(p);
        }
        match n.tt_move {
            Some(tt)
                if !n.defend_only
                    && self.singular[n.ply] != Some(tt)
                    && (n.ply != 0 || !self.excluded.contains(&tt))
                    && self.board.is_legal(tt)
                    && self.in_focus(tt, focus) =>
            {
                First::TtMove(tt)
            }
            _ => First::All,
        }
    }

    /// Steps 7 and 8: the move loop, PVS with late-move reductions, move-count pruning and
    /// pruning of late quiet moves near the leaves. `Ok((best score, best move))`, or
    /// `Err(score)` for a result not to store (no move, or an aborted search).
    fn search_moves(
        &mut self,
        n: &Node,
        alpha: Score,
        beta: Score,
    ) -> Result<(Score, Option<Pos>), Score> {
        // this ply's list, kept between nodes (a child uses the next ply's)
        let mut moves = std::mem::take(&mut self.move_lists[n.ply]);
        let found = self.search_move_list(n, alpha, beta, &mut moves);
        self.move_lists[n.ply] = moves;
        found
    }

    /// [`Worker::search_moves`] with the ply's list to fill, `moves`.
    fn search_move_list(
        &mut self,
        n: &Node,
        mut alpha: Score,
        beta: Score,
        moves: &mut Vec<Scored>,
    ) -> Result<(Score, Option<Pos>), Score> {
        let (mut depth, ply) = (n.depth, n.ply);
        let focus = if n.forced.is_none() && !self.caro {
            self.focus(n.defend_only)
        } else {
            Focus::All
        };
        let first = self.first_stage(n, focus);
        let mut picker = MovePicker::new(self, ply, first, n.tt_move, focus, moves);
        if moves.is_empty() {
            // nothing stops the threat (or no legal move): lost
            return Err(mated_in(ply + 2));
        }
        // A single reply costs no depth, nor does one of the few answers to a threat of an
        // open four (+60 +/- 49 Elo at 100 ms a move): it lets the search follow a chain of
        // threes as far as a chain of fours. (A quarter ply more for a single reply, as
        // Rapfi's 1.3 for the block of a four, session 18: -13 [-34, +7], 500 games at 100 ms.
        // Singular extensions of the TT move with multi-cut, session 20, commit d0d593e: no
        // gain at 40,000 nodes a move, turned off +5.9 [-6.9, +18.7] (renju +12.5, the
        // extension alone +11.2, each +/- 13); a quarter-ply TT-move extension at PV nodes
        // -67 [-81, -54]. Singular extensions are now `Params::se_depth`, off.)
        let extension = i32::from(
            picker.all_generated()
                && (moves.len() == 1
                    || (n.defend_only
                        && moves.len() <= self.params.defend_ext_moves as usize
                        && ply < DEFEND_EXT_MAX_PLY))
                && ply < MAX_PLY / 2,
        );
        let mut best = -INFINITE;
        let mut best_move = None;
        // a fixed array, so that no node allocates; only its first `tried_n` count
        let mut tried = [Pos::NONE; MAX_MALUS_MOVES];
        let mut tried_n = 0;
        let late = LateMoves::new(self, n, alpha);
        let excluded = self.singular[ply];
        while let Some((i, mv)) = picker.next(self, moves) {
            if Some(mv) == excluded {
                continue;
            }
            let quiet = self.is_quiet(mv) && Some(mv) != n.tt_move;
            if i > 0
                && !n.threatened
                && !n.exact
                && best > -WIN_MIN
                && late.prunes(self, n, i, mv, quiet)
            {
                continue;
            }
            // the singular test's extension does not stack on a single reply's
            let tt_ext = if Some(mv) == n.tt_move { n.tt_ext } else { 0 };
            let new_depth = depth - ONE_PLY + (extension * ONE_PLY + tt_ext).min(ONE_PLY);
            let score = self.search_move(n, mv, i, new_depth, alpha, beta);
            if self.aborted {
                return Err(0);
            }
            if score < beta && tried_n < MAX_MALUS_MOVES {
                tried[tried_n] = mv;
                tried_n += 1;
            }
            if score > best {
                best = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    if n.kind.is_pv() {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        self.cutoffs.record(n.depth, i == 0);
                        self.reward_cutoff(n, mv, quiet, &tried[..tried_n]);
                        break;
                    }
                    // Alpha raised: the moves still to come must beat a real score, so
                    // they get a ply less.
                    if depth > ALPHA_RAISE_MIN_DEPTH
                        && depth < ALPHA_RAISE_MAX_DEPTH
                        && !is_mate_score(score)
                        && !n.exact
                    {
                        depth -= ONE_PLY;
                    }
                }
            }
        }
        if best == -INFINITE {
            // every move was pruned: the static value stands; in a singular test, the
            // table's move was the only one: nothing else reaches alpha
            best = if excluded.is_some() {
                alpha
            } else {
                n.static_eval.min(beta)
            };
        }
        Ok((best, best_move))
    }

    /// One move of the loop: the first with the full window, later ones with a null window
    /// and a reduction first, searched again in full when they beat alpha.
    fn search_move(
        &mut self,
        n: &Node,
        mv: Pos,
        i: usize,
        new_depth: Depth,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let ply = n.ply;
        self.tt.prefetch(self.board.hash_after(mv));
        let cont_stat = if self.params.cont_lmr > 0 && i > 0 {
            super::cont::score(self.cont, self.cont_prev(), mv) * self.params.cont_lmr / 100
        } else {
            0
        };
        self.board.make(mv);
        let score = if i == 0 {
            -self.search(new_depth, -beta, -alpha, ply + 1, n.kind.first_child())
        } else {
            let mut r = 0;
            if n.depth >= 2 * ONE_PLY && !n.exact {
                r = self.reductions[((n.depth / ONE_PLY) as usize).min(63)][i.min(63)];
                if n.tt_pv {
                    r -= self.params.lmr_ttpv;
                }
                if n.kind.is_pv() {
                    r -= self.params.lmr_pv;
                } else if !n.improving {
                    r += self.params.lmr_not_improving;
                }
                if n.kind.is_cut() {
                    r += self.params.lmr_cut;
                }
                // (An attack, an open three or better, a ply less reduced: -26 [-40, -12] at
                // 40,000 nodes a move in freestyle, 573 pairs, session 19. Session 20, commit
                // d0d593e, the same way: a ply less at nodes once on the PV -15 [-30, -1]; a
                // ply off non-four moves at cut nodes far above beta -31 [-44, -19]; the
                // re-search a ply deeper or shallower by its margin +8 and -1, each +/- 13.
                // Session 21, commit 62d700e: a ply more when the table's move is an open
                // three or better +6 [-7, +20].)
                // a move with a good history record keeps more depth, a bad one less
                r -= (self.history[mv.index()][self.board.side().opponent().index()] + cont_stat)
                    / self.params.lmr_history_div
                    * ONE_PLY;
                r = r.clamp(-self.params.lmr_deeper, new_depth.max(0));
            }
            self.prior_r[ply + 1] = r;
            let mut score = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, NodeKind::Cut);
            self.prior_r[ply + 1] = 0;
            if score > alpha && r > 0 {
                score = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, n.kind.later_child());
            }
            if score > alpha && score < beta && n.kind.is_pv() {
                score = -self.search(new_depth, -beta, -alpha, ply + 1, NodeKind::Pv);
            }
            score
        };
        self.board.undo();
        score
    }

    /// A cut-off: killers for a quiet move, a history bonus for it and maluses for the
    /// moves searched before it.
    fn reward_cutoff(&mut self, n: &Node, mv: Pos, quiet: bool, tried: &[Pos]) {
        let me = self.board.side();
        if quiet {
            let k = &mut self.killers[n.ply];
            if k[0] != mv {
                k[1] = k[0];
                k[0] = mv;
            }
        }
        let bonus = history_bonus(n.depth);
        // (Rapfi keeps attacks, an open three or better for the mover, in tables apart from
        // quieter moves on the same cell: -16 [-37, +5] at 40,000 nodes, 512 pairs, session 32.)
        history_update(&mut self.history[mv.index()][me.index()], bonus);
        for &q in tried {
            history_update(&mut self.history[q.index()][me.index()], -bonus);
        }
        self.reward_low_ply(n.ply, mv, tried, bonus);
        if self.params.cont_order > 0 || self.params.cont_lmr > 0 {
            let prev = self.cont_prev();
            super::cont::update(self.cont, prev, mv, bonus);
            for &q in tried {
                super::cont::update(self.cont, prev, q, -bonus);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_is_futile_by_the_depth_its_reduction_leaves() {
        let p = |plies: i32| plies * ONE_PLY;
        // 8 plies less 1 less a 5-ply reduction: 2 plies left, a margin of 3 x 150
        assert!(futile_when_reduced(p(8), p(5), 3, 150, 450));
        assert!(!futile_when_reduced(p(8), p(5), 3, 150, 449));
        // reduced less, past the cap: searched however far below alpha
        assert!(!futile_when_reduced(p(8), p(2), 3, 150, 10_000));
        assert!(futile_when_reduced(p(8), p(2), 5, 150, 10_000));
        // a negative reduction (a good history) is none
        assert!(!futile_when_reduced(p(5), -p(3), 3, 150, 10_000));
        assert!(futile_when_reduced(p(4), -p(3), 3, 150, 600));
        // near the leaves the margin is one ply's
        assert!(futile_when_reduced(p(1), 0, 3, 150, 150));
    }
}
