//! The move picker: hands a node its moves one at a time, in stages. A forced block comes
//! alone; else the table's move comes first, before any other move is generated (most cut
//! nodes need nothing more); then every other move, scored, the best few picked one by one
//! and the rest sorted (a node that has not cut by then usually searches them all, where
//! picking one by one is quadratic). Facing an open-four threat only its answers are
//! generated, all at once: their number decides the node's extension.

use super::ordering::{by_pick_order, pick_best, Focus, Scored, PICK_BEFORE_SORT};
use super::Worker;
use crate::board::Pos;
use crate::eval::Evaluator;

/// What a node's first stage is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum First {
    /// The one cell that blocks the opponent's five.
    Forced(Pos),
    /// The table's move, before the others are generated.
    TtMove(Pos),
    /// Every move at once.
    All,
}

/// A node's moves as a sequence (see the module's doc). The list it fills is the node's
/// ply's, kept by the worker between nodes, so that no node allocates.
pub(super) struct MovePicker {
    ply: usize,
    /// The table's move: ordered first, and never handed out twice.
    tt_move: Option<Pos>,
    focus: Focus,
    /// Every move is in the list.
    generated: bool,
    /// The list from `next` on is in picking order.
    sorted: bool,
    next: usize,
}

impl MovePicker {
    /// Starts the picker with its first stage in `moves` (emptied first); `tt_move` is the
    /// table's move, if it has one (ordered first even where `first` does not hand it out).
    pub(super) fn new<E: Evaluator>(
        w: &mut Worker<'_, E>,
        ply: usize,
        first: First,
        tt_move: Option<Pos>,
        focus: Focus,
        moves: &mut Vec<Scored>,
    ) -> MovePicker {
        moves.clear();
        let generated = match first {
            First::Forced(p) => {
                moves.push(Scored { mv: p, score: 0 });
                true
            }
            First::TtMove(p) => {
                debug_assert_eq!(Some(p), tt_move);
                moves.push(Scored { mv: p, score: 0 });
                false
            }
            First::All => {
                w.push_scored_moves(ply, tt_move, focus, moves);
                true
            }
        };
        MovePicker {
            ply,
            tt_move,
            focus,
            generated,
            sorted: false,
            next: 0,
        }
    }

    /// Whether every move is in the list already (its length is the node's move count).
    pub(super) fn all_generated(&self) -> bool {
        self.generated
    }

    /// The next move and its number in the node (from 0), or `None` when all were handed out.
    pub(super) fn next<E: Evaluator>(
        &mut self,
        w: &mut Worker<'_, E>,
        moves: &mut Vec<Scored>,
    ) -> Option<(usize, Pos)> {
        let i = self.next;
        if i == moves.len() {
            if self.generated {
                return None;
            }
            self.generated = true;
            let start = moves.len();
            w.push_scored_moves(self.ply, self.tt_move, self.focus, moves);
            // the table's move was handed out first; the rest keep their cell order
            if let Some(j) = moves[start..]
                .iter()
                .position(|m| Some(m.mv) == self.tt_move)
            {
                moves.remove(start + j);
            }
            if i == moves.len() {
                return None;
            }
        }
        if !self.sorted && i >= PICK_BEFORE_SORT && self.generated {
            moves[i..].sort_unstable_by(by_pick_order);
            self.sorted = true;
        }
        if !self.sorted {
            pick_best(moves, i);
        }
        self.next += 1;
        Some((i, moves[i].mv))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::rng::SplitMix64;
    use crate::rules::Rule;
    use crate::search::{Limits, SearchControl, Searcher};

    /// Every move the picker hands out, in order.
    fn drain<E: Evaluator>(
        w: &mut Worker<'_, E>,
        first: First,
        tt_move: Option<Pos>,
        focus: Focus,
    ) -> Vec<Pos> {
        let mut moves = Vec::new();
        let mut picker = MovePicker::new(w, 0, first, tt_move, focus, &mut moves);
        let mut out = Vec::new();
        while let Some((i, mv)) = picker.next(w, &mut moves) {
            assert_eq!(i, out.len(), "moves are numbered in order");
            out.push(mv);
        }
        out
    }

    /// The picker's perft: over random positions of every rule, each stage hands out every
    /// move the node may play exactly once, the table's move first and the rest in the
    /// ordering's order, and a forced block alone.
    #[test]
    fn every_move_comes_once_in_every_stage() {
        let mut rng = SplitMix64::new(68);
        for round in 0..60 {
            let rule = Rule::ALL[round % Rule::ALL.len()];
            let size = [15, 20, 9][round % 3];
            let mut b = Board::new(size, size, rule);
            for _ in 0..rng.below(30) {
                let p = Pos::new(
                    rng.below(size as u64) as usize,
                    rng.below(size as u64) as usize,
                );
                if b.is_legal(p) && !b.is_win_move(b.side(), p) {
                    b.make(p);
                }
            }
            let mut s = Searcher::new(1 << 20);
            let control = SearchControl::default();
            s.with_worker(&b, &Limits::default(), &control, |w| {
                for focus in [Focus::All, Focus::OpenFour] {
                    let mut expected = w.scored_moves(0, None, focus);
                    expected.sort_unstable_by(by_pick_order);
                    let all: Vec<Pos> = expected.iter().map(|m| m.mv).collect();
                    // every move at once, in the ordering's order
                    assert_eq!(drain(w, First::All, None, focus), all);
                    // the table's move first, then every other, each once
                    if let Some(&tt) = all.get(rng.below(all.len().max(1) as u64) as usize) {
                        let got = drain(w, First::TtMove(tt), Some(tt), focus);
                        assert_eq!(got[0], tt);
                        let rest: Vec<Pos> = all.iter().copied().filter(|&p| p != tt).collect();
                        assert_eq!(got[1..], rest[..], "{b:?}");
                        // a forced block comes alone
                        assert_eq!(drain(w, First::Forced(tt), None, focus), [tt]);
                    }
                }
            });
        }
    }
}
