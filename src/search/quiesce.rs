//! The horizon: a narrow threat quiescence at depth 0 and below. The side to move may stand
//! pat on its static value or play a four; the reply to a four is forced (the node search
//! blocks the five point without spending depth), so each four costs one level of `depth`
//! below zero. Past the first levels only fours that carry a second threat are tried, which
//! keeps the tree a line, not a bush, while four-three wins and the obvious refutations of
//! a quiet leaf still show in the score.

use super::{Depth, Worker, ONE_PLY};
use crate::eval::{self, Evaluator, Score};
use crate::pattern::Threat;

/// Levels below the horizon at which any four may be played.
const PLAIN_FOUR_LEVELS: i32 = 2;
/// Levels below the horizon searched at most.
const MAX_LEVELS: i32 = 8;

impl<E: Evaluator> Worker<'_, E> {
    /// A node at `depth` <= 0 with nothing forced: stand pat, or a four.
    pub(super) fn quiesce(
        &mut self,
        depth: Depth,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let stand = eval::evaluate(&self.board);
        let level = -depth / ONE_PLY;
        if self.caro || stand >= beta || level >= MAX_LEVELS || ply + 4 >= super::MAX_PLY {
            return stand;
        }
        let me = self.board.side();
        let min = if level < PLAIN_FOUR_LEVELS {
            Threat::Block4
        } else {
            Threat::Block4Plus
        };
        if self.board.count_at_least(me, min) == 0 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        let mut moves = std::mem::take(&mut self.move_buf);
        self.board.candidates(&mut moves);
        let mut fours: Vec<(Threat, crate::board::Pos)> = moves
            .iter()
            .filter_map(|&p| self.legal_threat(p).filter(|&t| t >= min).map(|t| (t, p)))
            .collect();
        self.move_buf = moves;
        // strongest threat first, then cell order
        fours.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for (_, p) in fours {
            self.tt.prefetch(self.board.hash_after(p));
            self.board.make(p);
            let score = -self.search(depth - ONE_PLY, -beta, -alpha, ply + 1, false, false);
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}
