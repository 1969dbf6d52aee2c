//! A small NNUE-style network over the cells' pattern codes: the learned evaluation's
//! inference side (issue 11). Not played with yet: no trained weights beat the classical
//! evaluation so far.
//!
//! Each empty cell contributes, for each colour, a row of weights looked up by the cell's
//! pattern code for that colour (the same 1,365 codes the fitted tables of [`crate::cells`]
//! use; renju black and white apart). The board keeps the two colours' sums (the
//! accumulator) on make and undo through [`Accumulator`], as it keeps the classical sums.
//! A row has [`HIDDEN`] entries for a clipped-ReLU layer (the mover's activations and the
//! opponent's, each with its own output weights) and two for a linear path that bypasses
//! it: the cell's value for the colour as the side to move and as the side waiting. The
//! value is the layer's output plus the mover's linear sum, minus the opponent's, plus a bias
//! and the table over both sides' strongest threats.
//!
//! The classical evaluation is the special case with an empty layer: every term of the
//! threat-count model and of the cell tables is a value per cell by its pattern code, so
//! [`NetWeights::from_classical`] writes it as a network that gives exactly the same values,
//! which is where a fit starts.
//!
//! Integer throughout, so every build plays the same: weights `i16`, the layer's sums `i16`
//! (added and taken away wrapping, which is exact whenever the sum itself fits: the weights
//! are kept small for that), the linear sums `i32`, and the layer's output divided by
//! `2^shift` into evaluation units. The layer's sums are sixteen `i16` per colour so that an
//! update is two SIMD additions where the target has them.

use super::{threat_bucket, Evaluator, Score, WIN_MIN};
use super::{PATTERN_WEIGHT, TEMPO, THREAT_WEIGHT_TO_MOVE, THREAT_WEIGHT_WAITING};
use crate::board::{Accumulator, Board, CellInfo};
use crate::cells::{self, CellTables, BUCKETS, CODES};
use crate::pattern::{PatternTables, Threat, NEEDS_FOUL_CHECK, PATTERN_COUNT};
use crate::rules::Rule;
use std::sync::Arc;

/// Units of the clipped layer.
pub const HIDDEN: usize = 16;
/// Entries of a feature row: the layer's units, then the linear values as the side to move
/// ([`LIN_TO_MOVE`]) and as the side waiting ([`LIN_WAITING`]).
pub const ROW: usize = HIDDEN + 2;
pub const LIN_TO_MOVE: usize = HIDDEN;
pub const LIN_WAITING: usize = HIDDEN + 1;

/// The first bytes of [`NetWeights::to_bytes`].
const MAGIC: &[u8; 8] = b"RNSNET01";

/// The weights of one rule.
#[derive(Clone, Debug, PartialEq)]
pub struct NetWeights {
    /// `feature[table * CODES + code]`: what a cell with that code adds to its colour's sums;
    /// table 0 serves both colours, except in renju where black's is 0 and white's 1.
    pub feature: Vec<[i16; ROW]>,
    /// Added to each unit's sum before the clipping.
    pub bias: [i32; HIDDEN],
    /// A unit's activation: its sum clipped to `0..=clip`.
    pub clip: i32,
    /// `out[0]` weighs the mover's activations, `out[1]` the opponent's.
    pub out: [[i16; HIDDEN]; 2],
    /// The layer's output is divided by `2^shift`.
    pub shift: u32,
    /// Added to every value, in evaluation units (the tempo of having the move).
    pub out_bias: i32,
    /// `threats[to-move bucket * BUCKETS + waiting bucket]`, in evaluation units.
    pub threats: [i16; BUCKETS * BUCKETS],
    /// Whether black and white have tables of their own (renju).
    pub per_colour: bool,
}

impl NetWeights {
    /// All-zero weights of the right shape for `rule`.
    pub fn zero(rule: Rule) -> NetWeights {
        let per_colour = rule == Rule::Renju;
        NetWeights {
            feature: vec![[0; ROW]; CODES * (1 + per_colour as usize)],
            bias: [0; HIDDEN],
            clip: 64,
            out: [[0; HIDDEN]; 2],
            shift: 6,
            out_bias: 0,
            threats: [0; BUCKETS * BUCKETS],
            per_colour,
        }
    }

    /// The classical evaluation of `rule` as a network with an empty layer: each code's
    /// linear values are its line patterns' weights, its threat class's weight and its cell
    /// table value, for the side to move and for the side waiting; the threat table and
    /// the tempo are the classical ones.
    pub fn from_classical(rule: Rule) -> NetWeights {
        let mut w = NetWeights::zero(rule);
        let (patterns, tables) = (PatternTables::get(rule), cells::tables(rule));
        let colours = 1 + w.per_colour as usize;
        // every combination of four line patterns, to find each code's patterns and class
        for dense in 0..PATTERN_COUNT.pow(4) {
            let p: [u8; 4] = std::array::from_fn(|d| {
                (dense / PATTERN_COUNT.pow(d as u32) % PATTERN_COUNT) as u8
            });
            let lines: i32 = p.iter().map(|&x| PATTERN_WEIGHT[x as usize]).sum();
            for c in 0..colours {
                let (class, code) = patterns.cell(c, p);
                // as the board counts it: black's double-three candidate is a foul
                let class = match class & NEEDS_FOUL_CHECK != 0 {
                    true if c == 0 => Threat::Forbid as usize,
                    _ => (class & !NEEDS_FOUL_CHECK) as usize,
                };
                let row = &mut w.feature[c * CODES + code as usize];
                for (role, weights) in [THREAT_WEIGHT_TO_MOVE, THREAT_WEIGHT_WAITING]
                    .iter()
                    .enumerate()
                {
                    let cell = tables.cells[CellTables::table_index(rule, c, role)][code as usize];
                    row[HIDDEN + role] = (lines + weights[class] + cell as i32) as i16;
                }
            }
        }
        w.out_bias = TEMPO;
        w.threats = tables.threats;
        w
    }

    /// The weights as bytes (little-endian; see [`NetWeights::from_bytes`]): what the
    /// trainer writes and a build compiles in.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::with_capacity(64 + self.feature.len() * ROW * 2);
        b.extend_from_slice(MAGIC);
        for v in [HIDDEN as u32, self.per_colour as u32, self.shift] {
            b.extend_from_slice(&v.to_le_bytes());
        }
        for v in [self.clip, self.out_bias].iter().chain(&self.bias) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        let words = self.out.iter().flatten().chain(&self.threats);
        for v in words.chain(self.feature.iter().flatten()) {
            b.extend_from_slice(&v.to_le_bytes());
        }
        b
    }

    /// Weights from [`NetWeights::to_bytes`]; `None` for bytes of another shape.
    pub fn from_bytes(bytes: &[u8]) -> Option<NetWeights> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let (head, rest) = rest.split_at_checked(12)?;
        let word = |i: usize| u32::from_le_bytes(head[4 * i..4 * i + 4].try_into().unwrap());
        let (hidden, per_colour, shift) = (word(0), word(1), word(2));
        if hidden as usize != HIDDEN || per_colour > 1 || shift > 30 {
            return None;
        }
        let per_colour = per_colour == 1;
        let (ints, rest) = rest.split_at_checked(4 * (2 + HIDDEN))?;
        let ints: Vec<i32> = ints
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let rows = CODES * (1 + per_colour as usize);
        if rest.len() != 2 * (2 * HIDDEN + BUCKETS * BUCKETS + rows * ROW) {
            return None;
        }
        let mut words = rest
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes(c.try_into().unwrap()));
        let mut take = |n: usize| words.by_ref().take(n).collect::<Vec<i16>>();
        let out = [take(HIDDEN), take(HIDDEN)].map(|v| v.try_into().unwrap());
        let threats = take(BUCKETS * BUCKETS).try_into().unwrap();
        let feature = take(rows * ROW)
            .chunks_exact(ROW)
            .map(|r| r.try_into().unwrap())
            .collect();
        Some(NetWeights {
            feature,
            bias: ints[2..].try_into().unwrap(),
            clip: ints[0],
            out,
            shift,
            out_bias: ints[1],
            threats,
            per_colour,
        })
    }

    /// The feature row of colour index `c` for pattern code `code`.
    #[inline]
    pub fn row(&self, c: usize, code: u16) -> &[i16; ROW] {
        let table = if self.per_colour { c } else { 0 };
        &self.feature[table * CODES + code as usize]
    }

    /// The value for the side to move (colour index `me`) from both colours' sums and the
    /// threat bucket: the whole forward pass, shared by the board's incremental path and
    /// the from-scratch one.
    fn forward(&self, sums: &Sums, me: usize, bucket: usize) -> Score {
        let mut layer = 0i64;
        for (role, s) in [me, 1 - me].into_iter().enumerate() {
            for ((&x, &b), &w) in sums.hidden[s].iter().zip(&self.bias).zip(&self.out[role]) {
                layer += (x as i32 + b).clamp(0, self.clip) as i64 * w as i64;
            }
        }
        let v = (layer >> self.shift)
            + (sums.linear[me][0] - sums.linear[1 - me][1]) as i64
            + self.out_bias as i64
            + self.threats[bucket] as i64;
        v.clamp((-WIN_MIN + 1) as i64, (WIN_MIN - 1) as i64) as Score
    }
}

/// Each colour's sums of its feature rows over the empty cells.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Sums {
    /// The layer's units (wrapping).
    hidden: [[i16; HIDDEN]; 2],
    /// The linear values as the side to move and as the side waiting.
    linear: [[i32; 2]; 2],
}

impl Sums {
    /// Adds (`sign` 1) or takes away (-1) colour `c`'s `row`.
    #[inline]
    fn add(&mut self, c: usize, row: &[i16; ROW], sign: i16) {
        for (s, &w) in self.hidden[c].iter_mut().zip(row) {
            *s = s.wrapping_add(sign.wrapping_mul(w));
        }
        self.linear[c][0] += sign as i32 * row[LIN_TO_MOVE] as i32;
        self.linear[c][1] += sign as i32 * row[LIN_WAITING] as i32;
    }
}

/// The network's accumulator: the weights and the sums of the position.
#[derive(Clone)]
pub struct Network {
    weights: Arc<NetWeights>,
    sums: Sums,
}

impl Network {
    pub fn new(weights: Arc<NetWeights>) -> Network {
        Network {
            weights,
            sums: Sums::default(),
        }
    }

    pub fn weights(&self) -> &NetWeights {
        &self.weights
    }

    #[inline]
    fn add(&mut self, info: &CellInfo, sign: i16) {
        for c in 0..2 {
            self.sums.add(c, self.weights.row(c, info.code[c]), sign);
        }
    }

    /// The value of `board` computed from its empty cells alone, without the accumulator:
    /// what the incremental sums must always agree with.
    pub fn evaluate_from_scratch(board: &Board<Network>) -> Score {
        let w = board.accumulator().weights();
        let mut sums = Sums::default();
        for p in board.empty_cells() {
            let info = board.cell(p);
            for c in 0..2 {
                sums.add(c, w.row(c, info.code[c]), 1);
            }
        }
        let me = board.side();
        let bucket = threat_bucket(board, me) * BUCKETS + threat_bucket(board, me.opponent());
        w.forward(&sums, me.index(), bucket)
    }
}

impl Accumulator for Network {
    type Saved = Sums;

    fn clear(&mut self) {
        self.sums = Sums::default();
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
                let was = self.weights.row(c, old.code[c]);
                let now = self.weights.row(c, new.code[c]);
                for ((s, &a), &b) in self.sums.hidden[c].iter_mut().zip(now).zip(was) {
                    *s = s.wrapping_add(a).wrapping_sub(b);
                }
                self.sums.linear[c][0] += now[LIN_TO_MOVE] as i32 - was[LIN_TO_MOVE] as i32;
                self.sums.linear[c][1] += now[LIN_WAITING] as i32 - was[LIN_WAITING] as i32;
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
        let acc = board.accumulator();
        acc.weights.forward(&acc.sums, me.index(), bucket)
    }
}

#[cfg(test)]
mod tests;
