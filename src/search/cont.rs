//! Continuation history: how often a move cut off after a given earlier move, keyed by
//! that move's cell and where the new move lies from it (within 4 cells each way, or
//! "further"). Two tables share the store: after the opponent's last move (one ply back) and
//! after our own last move (two plies back). Stockfish's continuation history, with the
//! piece-to square of chess replaced by the relative cell: what answers a move, and what
//! follows up one's own, is mostly a matter of where it lies from it. The store (657 KiB a
//! thread) lives across a game's moves, with the history, and is cleared for a new game.

use super::{history_update, HISTORY_MAX};
use crate::board::Pos;
use crate::geometry::{MAX_SIZE, STRIDE};

/// Relative cells within this many cells in x and y get their own entry.
const REACH: isize = 4;
const SPAN: usize = 2 * REACH as usize + 1;
/// Entries per earlier cell: the window, and one for every cell further away.
const OFFSETS: usize = SPAN * SPAN + 1;
/// Earlier cells: every cell of the largest board, and one for a pass or none.
const PREVS: usize = MAX_SIZE * MAX_SIZE + 1;
/// Entries in the store: two tables (one and two plies back) by two sides to move.
pub(super) const CONT_ENTRIES: usize = 4 * PREVS * OFFSETS;

/// The entry of `mv` after `prev` in table `table` (0: one ply back, 1: two) for side `side`.
#[inline]
fn slot(table: usize, side: usize, prev: Pos, mv: Pos) -> usize {
    let (pi, mi) = (prev.index() as isize, mv.index() as isize);
    let stride = STRIDE as isize;
    let dx = mi % stride - pi % stride;
    let dy = mi / stride - pi / stride;
    let off = if dx.abs() <= REACH && dy.abs() <= REACH {
        ((dy + REACH) * SPAN as isize + dx + REACH) as usize
    } else {
        SPAN * SPAN
    };
    let prev_row = if prev.is_none() {
        PREVS - 1
    } else {
        prev.y() * MAX_SIZE + prev.x()
    };
    ((table * 2 + side) * PREVS + prev_row) * OFFSETS + off
}

/// The earlier moves a node's moves continue: the opponent's last and our own before it
/// (`Pos::NONE` for a pass or none).
#[derive(Clone, Copy)]
pub(super) struct Prev {
    pub(super) side: usize,
    pub(super) moves: [Pos; 2],
}

/// The sum of `mv`'s two continuation entries.
#[inline]
pub(super) fn score(store: &[i16], prev: Prev, mv: Pos) -> i32 {
    (0..2)
        .map(|t| i32::from(store[slot(t, prev.side, prev.moves[t], mv)]))
        .sum()
}

/// Moves both of `mv`'s entries by `bonus` (negative: a malus), with the history's gravity.
#[inline]
pub(super) fn update(store: &mut [i16], prev: Prev, mv: Pos, bonus: i32) {
    for t in 0..2 {
        let e = &mut store[slot(t, prev.side, prev.moves[t], mv)];
        let mut h = i32::from(*e);
        history_update(&mut h, bonus);
        *e = h.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_stay_in_the_store_and_apart() {
        let a = Pos::new(7, 7);
        let near = Pos::new(9, 5);
        let far = Pos::new(15, 0);
        let corner = Pos::new(31, 31);
        let mut seen = std::collections::HashSet::new();
        for t in 0..2 {
            for s in 0..2 {
                for (p, m) in [
                    (a, near),
                    (a, far),
                    (a, a),
                    (Pos::NONE, corner),
                    (corner, a),
                ] {
                    let i = slot(t, s, p, m);
                    assert!(i < CONT_ENTRIES);
                    assert!(seen.insert(i), "{t} {s}");
                }
            }
        }
        // the same relative cell shares an entry only under the same earlier cell
        assert_ne!(slot(0, 0, a, near), slot(0, 0, near, a));
        // every cell beyond the window shares one entry
        assert_eq!(slot(0, 0, a, far), slot(0, 0, a, corner));
    }

    #[test]
    fn updates_move_both_entries_and_stay_bounded() {
        let mut store = vec![0i16; CONT_ENTRIES];
        let prev = Prev {
            side: 1,
            moves: [Pos::new(7, 7), Pos::new(8, 8)],
        };
        let mv = Pos::new(6, 7);
        for _ in 0..100 {
            update(&mut store, prev, mv, 6000);
        }
        let s = score(&store, prev, mv);
        assert!(s > HISTORY_MAX && s <= 2 * HISTORY_MAX, "{s}");
        let other = Prev { side: 0, ..prev };
        assert_eq!(score(&store, other, mv), 0);
        update(&mut store, prev, mv, -6000);
        assert!(score(&store, prev, mv) < s);
    }
}
