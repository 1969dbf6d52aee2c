//! The horizon: a narrow threat quiescence at depth 0 and below. The side to move may stand
//! pat on its static value or play a four; the reply to a four is forced (the node search
//! blocks the five point without spending depth), so each four costs one level of `depth`
//! below zero. Past the first levels only fours that carry a second threat are tried, which
//! keeps the tree a line, not a bush, while four-three wins and the obvious refutations of
//! a quiet leaf still show in the score. Only fours near the side's own last stone are
//! tried, as a threat sequence is played: fours anywhere on the board made the quiescence
//! most of the tree (60 % of the nodes over `bench 12`).

use super::{Depth, NodeKind, Worker, ONE_PLY};
use crate::board::{Pos, DIR_OFFSETS, STRIDE};
use crate::eval::{Evaluator, Score};
use crate::pattern::Threat;

/// Whether a four on `p` continues an attack whose last stone is `q`: within the 5x5 square
/// around it, or on one of its lines up to four cells away. ([`near_cells`] lists them; this
/// is the definition the tests hold it to.)
#[cfg(test)]
fn near_attack(p: Pos, q: Pos) -> bool {
    let dx = p.x().abs_diff(q.x());
    let dy = p.y().abs_diff(q.y());
    (dx <= 2 && dy <= 2) || ((dx == 0 || dy == 0 || dx == dy) && dx.max(dy) <= 4)
}

/// The cells where a four continues an attack whose last stone is `q`: the 5x5 square
/// around it and its lines out to four cells (`near_attack` in the tests), each once, empty
/// or not (the board's padding keeps every offset inside the grid).
fn near_cells(q: Pos, out: &mut Vec<Pos>) {
    out.clear();
    for dy in -2isize..=2 {
        for dx in -2isize..=2 {
            if dx != 0 || dy != 0 {
                out.push(q.offset(dy * STRIDE as isize + dx));
            }
        }
    }
    for d in DIR_OFFSETS {
        for k in [-4, -3, 3, 4] {
            out.push(q.offset(k * d));
        }
    }
}

impl<E: Evaluator> Worker<'_, E> {
    /// A node at `depth` <= 0 with nothing forced: stand pat, or a four.
    pub(super) fn quiesce(
        &mut self,
        depth: Depth,
        mut alpha: Score,
        beta: Score,
        ply: usize,
    ) -> Score {
        let stand = self.static_value();
        let stand = self.corrected(stand);
        let level = -depth / ONE_PLY;
        if self.caro
            || stand >= beta
            || level >= self.params.q_max_levels
            || ply + 4 >= super::MAX_PLY
        {
            return stand;
        }
        let me = self.board.side();
        let min = if level < self.params.q_plain_levels {
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
        // the side's own last stone (none before its first move: every four is near)
        let own_last = self
            .board
            .history()
            .iter()
            .rev()
            .find(|&&(p, c)| c == me && !p.is_none())
            .map(|&(p, _)| p);
        match own_last {
            // Only the cells near it, not every candidate: a four point always has a stone
            // within two cells on its line, so it is a candidate whenever it is empty.
            Some(q) => near_cells(q, &mut moves),
            None => self.board.candidates(&mut moves),
        }
        // this ply's list, kept between nodes
        let mut fours = std::mem::take(&mut self.four_lists[ply]);
        fours.clear();
        fours.extend(
            moves
                .iter()
                .filter(|&&p| self.board.is_empty(p))
                .filter_map(|&p| self.legal_threat(p).filter(|&t| t >= min).map(|t| (t, p))),
        );
        self.move_buf = moves;
        // strongest threat first, then cell order
        fours.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        for &(_, p) in &fours {
            self.tt.prefetch(self.board.hash_after(p));
            self.board.make(p);
            let score = -self.search(depth - ONE_PLY, -beta, -alpha, ply + 1, NodeKind::All);
            self.board.undo();
            if self.aborted {
                break;
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
        self.four_lists[ply] = fours;
        if self.aborted {
            return 0;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::{near_attack, near_cells};
    use crate::board::Pos;

    #[test]
    fn near_attack_is_the_square_and_the_lines_to_four() {
        let q = Pos::new(7, 7);
        let near: Vec<(usize, usize)> = (0..15)
            .flat_map(|y| (0..15).map(move |x| (x, y)))
            .filter(|&(x, y)| near_attack(Pos::new(x, y), q))
            .collect();
        // 25 cells of the square, and 2 more cells on each of the 8 rays
        assert_eq!(near.len(), 25 + 16);
        for cell in [(5, 5), (9, 6), (7, 3), (11, 11), (3, 11), (11, 7)] {
            assert!(near.contains(&cell), "{cell:?}");
        }
        for cell in [(4, 6), (10, 5), (7, 2), (12, 12), (10, 9)] {
            assert!(!near.contains(&cell), "{cell:?}");
        }
    }

    #[test]
    fn near_cells_lists_each_near_cell_once_but_the_stone() {
        for q in [
            Pos::new(7, 7),
            Pos::new(0, 0),
            Pos::new(14, 3),
            Pos::new(31, 31),
        ] {
            let mut cells = Vec::new();
            near_cells(q, &mut cells);
            let mut want: Vec<Pos> = (-6isize..=6)
                .flat_map(|dy| (-6isize..=6).map(move |dx| (dx, dy)))
                .map(|(dx, dy)| (q.x() as isize + dx, q.y() as isize + dy))
                .filter(|&(x, y)| (0..32).contains(&x) && (0..32).contains(&y))
                .map(|(x, y)| Pos::new(x as usize, y as usize))
                .filter(|&p| p != q && near_attack(p, q))
                .collect();
            let mut on_board: Vec<Pos> =
                cells.iter().copied().filter(|p| want.contains(p)).collect();
            want.sort();
            on_board.sort();
            assert_eq!(on_board, want, "{q:?}");
            // the rest are off the board (the padding), and none is listed twice
            assert_eq!(cells.len(), 40);
            cells.sort();
            cells.dedup();
            assert_eq!(cells.len(), 40);
        }
    }
}
