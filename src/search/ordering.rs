//! Move ordering: the moves a node generates, their ordering scores (threat value, TT move,
//! killers, histories) and the order a node picks them in.

use super::{cont, history_update, Worker, HISTORY_ORDER_DIV, LOW_PLY};
use crate::board::{Pos, GRID_CELLS};
use crate::eval::{self, Evaluator};
use crate::pattern::{Pattern, Threat};

/// Moves the best of `moves[i..]` to `i`; equal scores go by cell index, so the order
/// never depends on how the moves were stored.
#[inline]
pub(super) fn pick_best(moves: &mut [Scored], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        let (a, b) = (&moves[j], &moves[best]);
        if a.score > b.score || (a.score == b.score && a.mv < b.mv) {
            best = j;
        }
    }
    moves.swap(i, best);
}

/// The order [`pick_best`] picks in: score first, then cell index.
#[inline]
pub(super) fn by_pick_order(a: &Scored, b: &Scored) -> std::cmp::Ordering {
    b.score.cmp(&a.score).then(a.mv.cmp(&b.mv))
}

/// Picks this many moves one at a time before sorting the rest: most cut nodes cut within
/// them, and a node that has not cut by then usually goes through its whole list, where
/// picking one by one is quadratic (it was half the move loop's time).
pub(super) const PICK_BEFORE_SORT: usize = 3;

/// The moves a node generates. Facing an open-four threat (the opponent's open three, or
/// a cell giving it two fours): our fours and the cells on its four lines; everything else
/// loses to the threat. (The same restriction facing a four-three or double-three threat,
/// to our fours and the cells on the opponent's lines of three, measured -36 +/- 44 Elo at
/// 100 ms a move and +10 +/- 48 when taken out again: those answers are ordered first
/// instead, by their defence scores. Tried again in session 17, on cells where the opponent
/// would make an open three or more: 128 and 131 of `tests/data/tactics_losses.txt` at 100 ms
/// a move in two runs, where this build solves 140 and 143.)
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Focus {
    All,
    OpenFour,
}

/// A move with its ordering score.
#[derive(Clone, Copy)]
pub(super) struct Scored {
    pub(super) mv: Pos,
    pub(super) score: i32,
}

impl<E: Evaluator> Worker<'_, E> {
    /// Whether `p` answers the threat a node focuses on (or is one of our fours).
    pub(super) fn in_focus(&self, p: Pos, focus: Focus) -> bool {
        let opp = self.board.side().opponent();
        let cell = self.board.cell(p);
        let line_min = match focus {
            Focus::All => return true,
            Focus::OpenFour => Pattern::Block4,
        };
        cell.threat(self.board.side()) >= Threat::Block4
            || (0..4).any(|d| cell.pattern(opp, d) >= line_min)
    }

    /// Legal moves for the side to move, scored and sorted best first (ties by cell index).
    pub(super) fn ordered_moves(
        &mut self,
        ply: usize,
        tt_move: Option<Pos>,
        focus: Focus,
    ) -> Vec<Scored> {
        let mut moves = self.scored_moves(ply, tt_move, focus);
        moves.sort_unstable_by(by_pick_order);
        moves
    }

    /// Legal moves for the side to move with their ordering scores, in cell order.
    pub(super) fn scored_moves(
        &mut self,
        ply: usize,
        tt_move: Option<Pos>,
        focus: Focus,
    ) -> Vec<Scored> {
        let mut moves = Vec::new();
        self.push_scored_moves(ply, tt_move, focus, &mut moves);
        moves
    }

    /// [`Worker::scored_moves`] appended to `moves`.
    pub(super) fn push_scored_moves(
        &mut self,
        ply: usize,
        tt_move: Option<Pos>,
        focus: Focus,
        moves: &mut Vec<Scored>,
    ) {
        let me = self.board.side();
        let prev = (self.params.cont_order > 0).then(|| self.cont_prev());
        let mut cands = std::mem::take(&mut self.move_buf);
        self.board.candidates(&mut cands);
        moves.reserve(cands.len());
        for &p in &cands {
            if ply == 0
                && (self.excluded.contains(&p)
                    || !self.root_moves.is_empty() && !self.root_moves.contains(&p))
            {
                continue;
            }
            let Some(t) = self.legal_threat(p) else {
                continue;
            };
            if t < Threat::Block4 && !self.in_focus(p, focus) {
                continue;
            }
            let mut score = eval::move_score(&self.board, p, t);
            if Some(p) == tt_move {
                score += 1 << 24;
            } else if self.killers[ply].contains(&p) {
                // (a counter move to the opponent's last move at 40 as well: -8 [-22, +5] at
                // 40,000 nodes a move, session 20, commit d0d593e)
                score += 60;
            }
            let mut h = self.history[p.index()][me.index()];
            if let Some(prev) = prev {
                h += cont::score(self.cont, prev, p) * self.params.cont_order / 100;
            }
            if ply < LOW_PLY && !self.low_ply.is_empty() {
                // weighted as Stockfish's: more the nearer the root
                h += self.low_ply[ply * GRID_CELLS + p.index()] * self.params.low_ply * 4
                    / (100 * (1 + 2 * ply as i32));
            }
            score += h / HISTORY_ORDER_DIV;
            moves.push(Scored { mv: p, score });
        }
        self.move_buf = cands;
    }

    /// A cut-off at `ply` by `mv` after `tried`, in the low-ply history.
    pub(super) fn reward_low_ply(&mut self, ply: usize, mv: Pos, tried: &[Pos], bonus: i32) {
        if ply >= LOW_PLY || self.low_ply.is_empty() {
            return;
        }
        let row = &mut self.low_ply[ply * GRID_CELLS..(ply + 1) * GRID_CELLS];
        history_update(&mut row[mv.index()], bonus);
        for &q in tried {
            history_update(&mut row[q.index()], -bonus);
        }
    }
}
