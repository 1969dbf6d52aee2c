//! A small NNUE-style network over the cells' pattern codes: the learned evaluation's
//! inference side (issue 11). Not played with yet: there are no trained weights.
//!
//! Each empty cell contributes, for each colour, a vector of [`HIDDEN`] weights looked up by
//! the cell's pattern code for that colour (the same 1,365 codes the fitted tables of
//! [`crate::cells`] use; renju black and white apart). The board keeps the two colours'
//! sums (the accumulator) on make and undo through [`Accumulator`], as it keeps the
//! classical sums. The value for the side to move is a clipped-ReLU layer over both sums,
//! the mover's first, a linear output and the table over both sides' strongest threats.
//! The fitted cell tables are the special case of one hidden unit with no clipping.
//!
//! Integer throughout, so every build plays the same: weights `i16`, sums `i32`, and the
//! output divided by `2^shift` into evaluation units.

use super::{threat_bucket, Evaluator, Score, WIN_MIN};
use crate::board::{Accumulator, Board, CellInfo};
use crate::cells::{BUCKETS, CODES};
use crate::rules::Rule;
use std::sync::Arc;

/// Width of the accumulator, per colour.
pub const HIDDEN: usize = 16;

/// The weights of one rule.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// `feature[table * CODES + code]`: what a cell with that code adds; table 0 serves both
    /// colours, except in renju where black's is 0 and white's 1.
    pub feature: Vec<[i16; HIDDEN]>,
    /// Added to each colour's sum before the clipping.
    pub bias: [i32; HIDDEN],
    /// The clipped sum stops here (the largest activation).
    pub clip: i32,
    /// `out[0]` weighs the mover's activations, `out[1]` the opponent's.
    pub out: [[i16; HIDDEN]; 2],
    pub out_bias: i32,
    /// The output is divided by `2^shift`.
    pub shift: u32,
    /// `threats[to-move bucket * BUCKETS + waiting bucket]`, in evaluation units.
    pub threats: [i16; BUCKETS * BUCKETS],
    /// Whether black and white have tables of their own (renju).
    pub per_colour: bool,
}

impl NetWeights {
    /// All-zero weights of the right shape for `rule` (the start of a fit).
    pub fn zero(rule: Rule) -> NetWeights {
        let per_colour = rule == Rule::Renju;
        NetWeights {
            feature: vec![[0; HIDDEN]; CODES * (1 + per_colour as usize)],
            bias: [0; HIDDEN],
            clip: 255,
            out: [[0; HIDDEN]; 2],
            out_bias: 0,
            shift: 8,
            threats: [0; BUCKETS * BUCKETS],
            per_colour,
        }
    }

    /// The feature row of colour index `c` for pattern code `code`.
    #[inline]
    fn row(&self, c: usize, code: u16) -> &[i16; HIDDEN] {
        let table = if self.per_colour { c } else { 0 };
        &self.feature[table * CODES + code as usize]
    }

    /// The value for the side to move (colour index `me`) from both colours' sums and the
    /// threat bucket: the whole forward pass, shared by the board's incremental path and
    /// the from-scratch one.
    fn forward(&self, sums: &[[i32; HIDDEN]; 2], me: usize, bucket: usize) -> Score {
        let mut v = self.out_bias as i64;
        for (role, s) in [me, 1 - me].into_iter().enumerate() {
            for ((&x, &b), &w) in sums[s].iter().zip(&self.bias).zip(&self.out[role]) {
                let a = (x + b).clamp(0, self.clip);
                v += a as i64 * w as i64;
            }
        }
        let v = (v >> self.shift) + self.threats[bucket] as i64;
        v.clamp((-WIN_MIN + 1) as i64, (WIN_MIN - 1) as i64) as Score
    }
}

/// The network's accumulator: each colour's sum of its feature rows over the empty cells.
#[derive(Clone)]
pub struct Network {
    weights: Arc<NetWeights>,
    sums: [[i32; HIDDEN]; 2],
}

impl Network {
    pub fn new(weights: Arc<NetWeights>) -> Network {
        Network {
            weights,
            sums: [[0; HIDDEN]; 2],
        }
    }

    pub fn weights(&self) -> &NetWeights {
        &self.weights
    }

    #[inline]
    fn add(&mut self, info: &CellInfo, sign: i32) {
        for c in 0..2 {
            let row = self.weights.row(c, info.code[c]);
            for (s, &w) in self.sums[c].iter_mut().zip(row) {
                *s += sign * w as i32;
            }
        }
    }

    /// The value of `board` computed from its empty cells alone, without the accumulator:
    /// what the incremental sums must always agree with.
    pub fn evaluate_from_scratch(board: &Board<Network>) -> Score {
        let w = board.accumulator().weights();
        let mut sums = [[0i32; HIDDEN]; 2];
        for p in board.empty_cells() {
            let info = board.cell(p);
            for (c, sum) in sums.iter_mut().enumerate() {
                for (s, &x) in sum.iter_mut().zip(w.row(c, info.code[c])) {
                    *s += x as i32;
                }
            }
        }
        let me = board.side();
        let bucket = threat_bucket(board, me) * BUCKETS + threat_bucket(board, me.opponent());
        w.forward(&sums, me.index(), bucket)
    }
}

impl Accumulator for Network {
    type Saved = [[i32; HIDDEN]; 2];

    fn clear(&mut self) {
        self.sums = [[0; HIDDEN]; 2];
    }

    #[inline]
    fn cell_added(&mut self, _q: usize, info: &CellInfo) {
        self.add(info, 1);
    }

    #[inline]
    fn cell_removed(&mut self, _q: usize, info: &CellInfo) {
        self.add(info, -1);
    }

    #[inline]
    fn cell_changed(&mut self, _q: usize, _line: usize, old: &CellInfo, new: &CellInfo) {
        // only the colours whose code moved touch their sums
        for c in 0..2 {
            if old.code[c] != new.code[c] {
                let (was, now) = (
                    self.weights.row(c, old.code[c]),
                    self.weights.row(c, new.code[c]),
                );
                for h in 0..HIDDEN {
                    self.sums[c][h] += now[h] as i32 - was[h] as i32;
                }
            }
        }
    }

    #[inline]
    fn save(&self) -> Self::Saved {
        self.sums
    }

    #[inline]
    fn restore(&mut self, saved: Self::Saved) {
        self.sums = saved;
    }
}

impl Evaluator for Network {
    fn evaluate(board: &Board<Network>) -> Score {
        let me = board.side();
        let bucket = threat_bucket(board, me) * BUCKETS + threat_bucket(board, me.opponent());
        board
            .accumulator()
            .weights
            .forward(&board.accumulator().sums, me.index(), bucket)
    }
}

#[cfg(test)]
mod tests;
