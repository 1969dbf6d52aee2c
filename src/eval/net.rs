//! A small NNUE-style network over the cells' pattern codes: the learned evaluation. The
//! engine plays every rule with one (`crate::cells::net::network`), trained by
//! `examples/train_net.rs`. [`LineNetwork`]'s value, at the end, adds an experimental
//! line-shape network's correction (`crate::cells::line`).
//!
//! Each empty cell contributes, for each colour, a row of weights looked up by the cell's
//! pattern code for that colour (the same 1,365 codes the fitted tables of [`crate::cells`]
//! use; renju black and white apart). The board keeps the two colours' sums (the
//! accumulator, `crate::board::Network`) on make and undo, as it keeps the classical sums.
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
use crate::board::{pools_from_scratch, Accumulator, Board, LineNetwork, Network, Pools};
use crate::cells::{self, CellTables, BUCKETS, CODES};
use crate::pattern::{PatternTables, Threat, NEEDS_FOUL_CHECK, PATTERN_COUNT};
use crate::rules::Rule;

pub use crate::cells::net::{NetWeights, Sums, HIDDEN, LIN_TO_MOVE, LIN_WAITING, ROW};

impl NetWeights {
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
}

/// The cell-code network's value of `board` for the side to move, before the clamp.
#[inline]
fn value<A: Accumulator>(board: &Board<A>, w: &NetWeights, sums: &Sums) -> i32 {
    let me = board.side();
    let bucket = threat_bucket(board, me) * BUCKETS + threat_bucket(board, me.opponent());
    w.forward(sums, me.index(), bucket)
}

/// The cell-code network's sums of `board` from its empty cells alone.
fn sums_from_scratch<A: Accumulator>(board: &Board<A>, w: &NetWeights) -> Sums {
    let mut sums = Sums::default();
    for p in board.empty_cells() {
        let info = board.cell(p);
        for c in 0..2 {
            sums.add(c, w.row(c, info.code[c]), 1);
        }
    }
    sums
}

#[inline]
fn clamp(v: i32) -> Score {
    v.clamp(-WIN_MIN + 1, WIN_MIN - 1)
}

/// The value of `board` computed from its empty cells alone, without the accumulator:
/// what the incremental sums must always agree with.
pub fn evaluate_from_scratch(board: &Board<Network>) -> Score {
    let w = board.accumulator().weights();
    clamp(value(board, w, &sums_from_scratch(board, w)))
}

impl Evaluator for Network {
    #[inline]
    fn evaluate(board: &Board<Network>) -> Score {
        let acc = board.accumulator();
        clamp(value(board, acc.weights(), acc.sums()))
    }
}

/// The cell-code network's value `base` with the line-shape network's correction from the
/// side to move's pool in `pools` (where the rule has a line network), clamped.
#[inline]
fn with_line(board: &Board<LineNetwork>, base: i32, pools: Option<&Pools>) -> Score {
    let line = board.accumulator().line().map(|l| l.weights());
    clamp(match (line, pools) {
        (Some(line), Some(pools)) => {
            let pool = &pools[board.side().index()];
            let v = base as f32 * line.base_scale + line.forward(pool);
            v.round().clamp(i32::MIN as f32, i32::MAX as f32) as i32
        }
        _ => base,
    })
}

impl Evaluator for LineNetwork {
    #[inline]
    fn evaluate(board: &Board<LineNetwork>) -> Score {
        let acc = board.accumulator();
        let net = acc.network();
        let base = value(board, net.weights(), net.sums());
        match acc.line() {
            // a board not flushed since its last move: read the pools afresh
            Some(line) if line.is_stale() => {
                let pools = pools_from_scratch(line.weights(), board.grid());
                with_line(board, base, Some(&pools))
            }
            line => with_line(board, base, line.map(|l| l.pools())),
        }
    }
}

/// [`evaluate_from_scratch`] for [`LineNetwork`]: the pools read from the grid afresh.
pub fn evaluate_line_from_scratch(board: &Board<LineNetwork>) -> Score {
    let acc = board.accumulator();
    let w = acc.network().weights();
    let base = value(board, w, &sums_from_scratch(board, w));
    let pools = acc
        .line()
        .map(|l| pools_from_scratch(l.weights(), board.grid()));
    with_line(board, base, pools.as_ref())
}

#[cfg(test)]
mod tests;
