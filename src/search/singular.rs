//! Singular extensions (Stockfish's; `Params::se_depth`, off in every rule): a node tests
//! whether the table's move is the only good one by searching itself without it.

use super::node::Node;
use super::tt::{Bound, Hit};
use super::{Depth, NodeKind, Worker, MAX_PLY, ONE_PLY};
use crate::eval::{is_mate_score, Evaluator, Score};

impl<E: Evaluator> Worker<'_, E> {
    /// Step 6d: Stockfish's singular test (`Params::se_depth`, 0: off). When every other
    /// move falls short of the table's bound on its move by a margin, that move is the only
    /// good one and gets a ply more (`Ok`, in [`Depth`] units); when another move reaches
    /// beta as well, the node is taken to fail high (multi-cut: `Err(score)`, not at PV
    /// nodes); a move that is not singular but whose bound is already at beta gets a ply
    /// less.
    pub(super) fn singular_test(&mut self, n: &Node, h: &Hit, beta: Score) -> Result<Depth, Score> {
        let p = self.params;
        let Some(mv) = n.tt_move else {
            return Ok(0);
        };
        if p.se_depth <= 0
            || n.ply == 0
            || n.threatened
            || n.exact
            || n.depth < p.se_depth * ONE_PLY
            || n.ply >= MAX_PLY / 2
            || h.bound == Bound::Upper
            || h.depth < n.depth - 3 * ONE_PLY
            || is_mate_score(h.score)
            || !self.board.is_legal(mv)
        {
            return Ok(0);
        }
        let s_beta = h.score - p.se_margin * n.depth / ONE_PLY;
        let s_depth = (n.depth - ONE_PLY) / 2;
        let kind = if n.kind.is_cut() {
            NodeKind::Cut
        } else {
            NodeKind::All
        };
        self.singular[n.ply] = Some(mv);
        let v = self.search(s_depth, s_beta - 1, s_beta, n.ply, kind);
        self.singular[n.ply] = None;
        // the search of the same node rewrote the node's own marks
        self.tt_pv[n.ply] = n.tt_pv;
        self.evals[n.ply] = n.static_eval;
        if self.aborted {
            return Err(0);
        }
        if v < s_beta {
            return Ok(ONE_PLY);
        }
        if s_beta >= beta && !n.kind.is_pv() {
            return Err(s_beta);
        }
        Ok(if h.score >= beta { -ONE_PLY } else { 0 })
    }
}
