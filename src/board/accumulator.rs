//! The seam between the board and an evaluation: what an evaluation keeps incrementally.
//!
//! The board owns one [`Accumulator`] and tells it of every change to the data of an empty
//! cell as it happens on make (a cell leaves the pool of empty cells, or one of its lines
//! changes); undo restores the accumulator's [`Accumulator::Saved`] value, saved with every
//! move, so an accumulator never has to run its updates backwards. The evaluation built on
//! it (`crate::eval::Evaluator`) reads the accumulator and the board's threat counts.
//!
//! [`Classical`] holds the line-pattern histogram and the fitted per-cell table sums of
//! [`crate::cells`]; [`Network`] a network's sums (`crate::cells::net`: a row of weights per
//! cell by its pattern code). [`Shipped`], the board's default, is the one the engine plays
//! each rule with: the rule's trained network.

use super::CellInfo;
use crate::cells::net::{self, NetWeights, Sums};
use crate::cells::{self, CellTables, CODES};
use crate::geometry::{Color, Grid};
use crate::pattern::{Pattern, PATTERN_COUNT};
use crate::rules::Rule;
use std::fmt;
use std::sync::Arc;

/// Incremental sums over the board's empty cells, kept by the board on make and undo.
pub trait Accumulator: Clone + Send + Sync + 'static {
    /// What undo restores; saved before every move.
    type Saved: Copy + PartialEq + fmt::Debug + Send + Sync;
    /// Forgets every cell: the sums of a board without empty cells.
    fn clear(&mut self);
    /// Empty cell `q` (a grid index) joins the sums with its data `info`.
    fn cell_added(&mut self, q: usize, info: &CellInfo);
    /// Empty cell `q` leaves the sums (a stone or a wall lands on it); `info` was its data.
    fn cell_removed(&mut self, q: usize, info: &CellInfo);
    /// Line `line` of empty cell `q` changed, and with it the cell's data from `old` to
    /// `new` (classes and codes may follow; the other lines' patterns did not change).
    #[inline]
    fn cell_changed(&mut self, q: usize, line: usize, old: &CellInfo, new: &CellInfo) {
        let _ = line;
        self.cell_removed(q, old);
        self.cell_added(q, new);
    }
    /// A stone landed on grid index `p`; `grid` and the line `keys` already show it.
    #[inline]
    fn stone_put(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]]) {
        let _ = (p, grid, keys);
    }
    /// The stone on `p` is about to be taken back (`grid` and `keys` still show it); the
    /// saved value comes back through [`Accumulator::restore`] after.
    #[inline]
    fn stone_taken(&mut self, p: usize, grid: &Grid, keys: &[[u32; 4]]) {
        let _ = (p, grid, keys);
    }
    /// Brings sums kept lazily up to date before an evaluation reads them.
    #[inline]
    fn flush(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        let _ = (grid, keys);
    }
    /// The cells changed wholesale (a new board, a wall): rebuild what reads the stones.
    fn rebuild(&mut self, grid: &Grid, keys: &[[u32; 4]]) {
        let _ = (grid, keys);
    }
    fn save(&self) -> Self::Saved;
    fn restore(&mut self, saved: Self::Saved);
}

/// The classical evaluation's sums: for each colour the number of (empty cell, line) pairs
/// of each line pattern, and the fitted cell values of the rule summed over the empty cells
/// for that colour as the side to move and as the side waiting.
#[derive(Clone)]
pub struct Classical {
    tables: &'static CellTables,
    /// `value_tables[color][role]`: the table of `tables` each sum adds from, chosen once for
    /// the rule so the update does not ask the rule again.
    value_tables: [[&'static [i16; CODES]; 2]; 2],
    sums: ClassicalSums,
}

/// What [`Classical`] saves for undo.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClassicalSums {
    /// `pcounts[color][pattern]`.
    pcounts: [[u16; PATTERN_COUNT]; 2],
    /// `values[color][role]`, role 0 the side to move.
    values: [[i32; 2]; 2],
}

impl Classical {
    pub fn new(rule: Rule) -> Classical {
        let tables = cells::tables(rule);
        Classical {
            tables,
            value_tables: std::array::from_fn(|c| {
                std::array::from_fn(|role| &tables.cells[CellTables::table_index(rule, c, role)])
            }),
            sums: ClassicalSums {
                pcounts: [[0; PATTERN_COUNT]; 2],
                values: [[0; 2]; 2],
            },
        }
    }

    /// How many (empty cell, line) pairs give colour `c` the line pattern `p`.
    #[inline]
    pub fn pattern_count(&self, c: Color, p: Pattern) -> u16 {
        self.sums.pcounts[c.index()][p as usize]
    }

    /// The sum of the fitted cell values over the empty cells for colour `c`, as the side to
    /// move (`to_move`) or as the side waiting.
    #[inline]
    pub fn cell_values(&self, c: Color, to_move: bool) -> i32 {
        self.sums.values[c.index()][usize::from(!to_move)]
    }

    /// The rule's fitted tables (for the threat-bucket term of the evaluation).
    pub fn tables(&self) -> &'static CellTables {
        self.tables
    }

    /// Adds (`sign` 1) or removes (-1) the cell values of pattern code `code` of colour `s`.
    #[inline]
    fn add_values(&mut self, s: usize, code: u16, sign: i32) {
        for role in 0..2 {
            self.sums.values[s][role] += sign * self.value_tables[s][role][code as usize] as i32;
        }
    }
}

impl Accumulator for Classical {
    type Saved = ClassicalSums;

    fn clear(&mut self) {
        self.sums.pcounts = [[0; PATTERN_COUNT]; 2];
        self.sums.values = [[0; 2]; 2];
    }

    #[inline]
    fn cell_added(&mut self, _q: usize, info: &CellInfo) {
        for s in 0..2 {
            for d in 0..4 {
                self.sums.pcounts[s][info.pat[s][d] as usize] += 1;
            }
            self.add_values(s, info.code[s], 1);
        }
    }

    #[inline]
    fn cell_removed(&mut self, _q: usize, info: &CellInfo) {
        for s in 0..2 {
            for d in 0..4 {
                self.sums.pcounts[s][info.pat[s][d] as usize] -= 1;
            }
            self.add_values(s, info.code[s], -1);
        }
    }

    #[inline]
    fn cell_changed(&mut self, _q: usize, line: usize, old: &CellInfo, new: &CellInfo) {
        for s in 0..2 {
            let (was, now) = (old.pat[s][line], new.pat[s][line]);
            if was != now {
                self.sums.pcounts[s][was as usize] -= 1;
                self.sums.pcounts[s][now as usize] += 1;
            }
            if old.code[s] != new.code[s] {
                self.add_values(s, old.code[s], -1);
                self.add_values(s, new.code[s], 1);
            }
        }
    }

    #[inline]
    fn save(&self) -> ClassicalSums {
        self.sums
    }

    #[inline]
    fn restore(&mut self, saved: ClassicalSums) {
        self.sums = saved;
    }
}

/// A network's sums (`crate::cells::net`): each colour's sum of its feature rows over the
/// empty cells.
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
    pub fn sums(&self) -> &Sums {
        &self.sums
    }

    #[inline]
    fn add(&mut self, info: &CellInfo, sign: i16) {
        for c in 0..2 {
            self.sums.add(c, self.weights.row(c, info.code[c]), sign);
        }
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
                self.sums.replace(c, was, self.weights.row(c, new.code[c]));
            }
        }
    }

    #[inline]
    fn save(&self) -> Sums {
        self.sums
    }

    #[inline]
    fn restore(&mut self, saved: Sums) {
        self.sums = saved;
    }
}

/// The evaluation the engine plays with: the rule's trained network
/// ([`crate::cells::net::network`]; every rule has one). [`Classical`] stays for the tools and
/// tests: it is where training starts. The `line-net` feature plays the experimental
/// [`super::LineNetwork`] instead.
#[cfg(not(feature = "line-net"))]
pub type Shipped = Network;
#[cfg(feature = "line-net")]
pub type Shipped = super::LineNetwork;

impl Network {
    /// The sums of the network the engine plays `rule` with on a `width`×`height` board.
    pub fn shipped(rule: Rule, width: usize, height: usize) -> Network {
        Network::new(net::network_for(rule, width, height))
    }
}
