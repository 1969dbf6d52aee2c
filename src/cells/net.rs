//! The weights of a small NNUE-style network over the cells' pattern codes, and the
//! arithmetic of its forward pass. The board keeps the network's sums
//! (`crate::board::Network`), the evaluation reads them (`crate::eval::net`); the weights
//! of a rule that plays with a network are compiled in ([`network`]). See
//! `crate::eval::net` for the architecture and the number format.

use super::{BUCKETS, CODES};
use crate::rules::Rule;
use std::sync::{Arc, OnceLock};

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
    /// table 0 serves both colours, unless `per_colour`: then black's is 0 and white's 1.
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
    /// Whether black and white have tables of their own (renju's classical evaluation as a
    /// network, and the shipped renju network: standard's shared table, split and fine-tuned).
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
    /// threat bucket (the evaluation clamps it to its range): the whole forward pass, shared
    /// by the board's incremental path and the from-scratch one.
    pub fn forward(&self, sums: &Sums, me: usize, bucket: usize) -> i32 {
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
        v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
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
    /// Replaces colour `c`'s row `was` by `now` (a cell's code changed).
    #[inline]
    pub fn replace(&mut self, c: usize, was: &[i16; ROW], now: &[i16; ROW]) {
        for ((s, &a), &b) in self.hidden[c].iter_mut().zip(now).zip(was) {
            *s = s.wrapping_add(a).wrapping_sub(b);
        }
        self.linear[c][0] += now[LIN_TO_MOVE] as i32 - was[LIN_TO_MOVE] as i32;
        self.linear[c][1] += now[LIN_WAITING] as i32 - was[LIN_WAITING] as i32;
    }

    /// Adds (`sign` 1) or takes away (-1) colour `c`'s `row`.
    #[inline]
    pub fn add(&mut self, c: usize, row: &[i16; ROW], sign: i16) {
        for (s, &w) in self.hidden[c].iter_mut().zip(row) {
            *s = s.wrapping_add(sign.wrapping_mul(w));
        }
        self.linear[c][0] += sign as i32 * row[LIN_TO_MOVE] as i32;
        self.linear[c][1] += sign as i32 * row[LIN_WAITING] as i32;
    }
}

/// The trained network the engine plays `rule` with on 15×15 (see `scripts/tune/README.md` for the
/// data and the commands that make `net/*.bin`). Renju's is standard's fine-tuned on renju
/// games, one table for both colours: the networks fitted from the classical start with a
/// table per colour did not beat the classical evaluation.
/// Caro's is freestyle's results-only network (`retrain.sh` makes it beside freestyle's own)
/// fine-tuned on caro's decisive self-play games; exact-five caro, with no games of its own,
/// plays standard's network as it was before standard's own learned from search scores
/// (`caro-exact.bin`: an overline does not win in either, and that one was measured in
/// exact caro). The caro classifier reads their cells, so a five blocked at both ends reads
/// as dead.
pub fn network(rule: Rule) -> Arc<NetWeights> {
    network_for(rule, 15, 15)
}

/// Freestyle boards with at least this many cells a side play the large-board network (and
/// the search's large-board values, `crate::search::Params::for_board`).
pub const LARGE_SIDE: usize = 18;

/// The network the engine plays `rule` with on a `width`×`height` board: [`network`], except
/// freestyle on boards of [`LARGE_SIDE`] or more a side, which plays freestyle's network
/// fine-tuned on 20×20 self-play (`net/freestyle-20.bin`): the 15×15 network had seen no
/// game of a larger board, whose openings and edges play otherwise.
pub fn network_for(rule: Rule, width: usize, height: usize) -> Arc<NetWeights> {
    static NETS: [OnceLock<Arc<NetWeights>>; 6] = [const { OnceLock::new() }; 6];
    let large = width.min(height) >= LARGE_SIDE;
    let (slot, bytes, name): (usize, &[u8], &str) = match rule {
        Rule::Freestyle if large => (5, include_bytes!("net/freestyle-20.bin"), "freestyle-20"),
        Rule::Freestyle => (0, include_bytes!("net/freestyle.bin"), "freestyle"),
        Rule::Standard => (1, include_bytes!("net/standard.bin"), "standard"),
        Rule::Renju => (2, include_bytes!("net/renju.bin"), "renju"),
        Rule::Caro => (3, include_bytes!("net/caro.bin"), "caro"),
        Rule::CaroExact => (4, include_bytes!("net/caro-exact.bin"), "caro-exact"),
    };
    NETS[slot]
        .get_or_init(|| Arc::new(NetWeights::from_bytes(bytes).expect(name)))
        .clone()
}
