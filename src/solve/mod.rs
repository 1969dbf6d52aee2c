//! An exact solver for small m,n,k-games: win, draw or loss for the first player.
//!
//! The engine's [`crate::board::Board`] is built around k = 5 (its pattern tables, the padded
//! grid, renju), and its hot path must stay as it is. So this is a separate, small solver over
//! a `u64` bitboard (boards of at most 64 cells), with k as a parameter: negamax alpha-beta
//! over the three values loss, draw, win, a transposition table keyed by the position reduced
//! over the board's symmetries (8 on a square board, 4 on a rectangle), and only pruning that
//! is exact:
//!
//! - the side to move with a move that completes a line wins;
//! - an opponent with two different completing moves wins;
//! - an opponent with one must be blocked there, and that is the only move searched;
//! - a side that can no longer complete any line (every line holds an opponent stone or
//!   needs more stones than that side has moves left) can at best draw;
//! - the Erdős–Selfridge criterion: if the lines a side can still complete, each weighted
//!   2^-(stones it still needs), sum to less than 1 with the other side to move, the other
//!   side can stop every one of them, so that side can at best draw. With that side to move
//!   the sum after its best move must stay below 1.
//!
//! Parts: `mod.rs` the geometry (lines, symmetries, threats), `search.rs` the alpha-beta and
//! its move ordering, `table.rs` the transposition table, `cli.rs` its options and report.

pub mod cli;
mod search;
mod table;
#[cfg(test)]
mod tests;

pub use search::Solver;

/// The most cells a board may have.
pub const MAX_CELLS: usize = 64;

/// Which lines win.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveRule {
    /// k or more in a row wins.
    Freestyle,
    /// Exactly k in a row wins; a longer run does not.
    Exact,
}

/// The game's value for the side to move: -1 loss, 0 draw, 1 win.
pub type Value = i8;

/// Text for a value from the first player's side.
pub fn value_name(v: Value) -> &'static str {
    match v {
        1 => "first player wins",
        0 => "draw",
        _ => "second player wins",
    }
}

/// A line of k cells: its cells, and the cells just beyond its two ends (for exact k).
#[derive(Clone, Copy, Debug)]
struct Window {
    cells: u64,
    ends: u64,
}

/// The geometry of one m,n,k game.
#[derive(Clone, Debug)]
pub struct Game {
    pub width: usize,
    pub height: usize,
    pub k: usize,
    pub rule: SolveRule,
    windows: Vec<Window>,
    /// `sym_cell[s][c]`: the image of cell `c` under symmetry `s` (0 is the identity).
    sym_cell: Vec<[u8; MAX_CELLS]>,
    /// `inv_cell[s][c]`: the cell whose image under symmetry `s` is `c`.
    inv_cell: Vec<[u8; MAX_CELLS]>,
    /// Cells in static move order: nearest the centre first.
    order: Vec<u8>,
}

/// A position seen under each symmetry of the board: `keys[s]` holds the first player's
/// stones (mapped by symmetry `s`) in its low `cells` bits and the second player's above
/// them. Kept up to date move by move, so the canonical key costs a minimum of 8 numbers.
#[derive(Clone, Copy, Debug)]
struct Pos {
    keys: [u128; 8],
    first: u64,
    second: u64,
}

impl Pos {
    fn first_to_move(&self) -> bool {
        self.first.count_ones() == self.second.count_ones()
    }
    /// (side to move, other side).
    fn sides(&self) -> (u64, u64) {
        if self.first_to_move() {
            (self.first, self.second)
        } else {
            (self.second, self.first)
        }
    }
}

/// What [`Game::threats`] finds for the side to move (`my_`) and the other side (`op_`).
#[derive(Default)]
struct Threats {
    /// Empty cells that complete a line.
    my_wins: u64,
    op_wins: u64,
    /// Erdős–Selfridge potentials: the sum of 2^(stones in it) over the lines the side can
    /// still complete in the moves it has left (saturating).
    my_pot: u64,
    op_pot: u64,
}

impl Game {
    /// The game, or why it cannot be solved here.
    pub fn new(width: usize, height: usize, k: usize, rule: SolveRule) -> Result<Game, String> {
        if width == 0 || height == 0 || k == 0 {
            return Err("width, height and k must be at least 1".into());
        }
        if width * height > MAX_CELLS {
            return Err(format!(
                "{width}x{height} has {} cells; the solver takes at most {MAX_CELLS}",
                width * height
            ));
        }
        let mut g = Game {
            width,
            height,
            k,
            rule,
            windows: Vec::new(),
            sym_cell: Vec::new(),
            inv_cell: Vec::new(),
            order: Vec::new(),
        };
        g.windows = g.make_windows();
        g.make_symmetries();
        let mut order: Vec<u8> = (0..g.cells() as u8).collect();
        let (cx, cy) = (width as i64 - 1, height as i64 - 1);
        order.sort_by_key(|&c| {
            let (x, y) = g.xy(c as usize);
            let (dx, dy) = ((2 * x as i64 - cx).abs(), (2 * y as i64 - cy).abs());
            (dx.max(dy), dx + dy)
        });
        g.order = order;
        Ok(g)
    }

    pub fn cells(&self) -> usize {
        self.width * self.height
    }
    fn xy(&self, c: usize) -> (usize, usize) {
        (c % self.width, c / self.width)
    }
    fn bit(&self, x: i64, y: i64) -> Option<u64> {
        let (w, h) = (self.width as i64, self.height as i64);
        ((0..w).contains(&x) && (0..h).contains(&y)).then(|| 1u64 << (y * w + x))
    }
    fn full(&self) -> u64 {
        if self.cells() == 64 {
            u64::MAX
        } else {
            (1u64 << self.cells()) - 1
        }
    }

    fn make_windows(&self) -> Vec<Window> {
        let mut out = Vec::new();
        let k = self.k as i64;
        for (dx, dy) in [(1i64, 0i64), (0, 1), (1, 1), (1, -1)] {
            for y in 0..self.height as i64 {
                for x in 0..self.width as i64 {
                    let cells: Option<Vec<u64>> =
                        (0..k).map(|i| self.bit(x + i * dx, y + i * dy)).collect();
                    let Some(cells) = cells else { continue };
                    let before = self.bit(x - dx, y - dy).unwrap_or(0);
                    let after = self.bit(x + k * dx, y + k * dy).unwrap_or(0);
                    let exact = self.rule == SolveRule::Exact;
                    out.push(Window {
                        cells: cells.iter().fold(0, |a, b| a | b),
                        ends: if exact { before | after } else { 0 },
                    });
                }
            }
        }
        // k = 1: the four directions give the same one-cell line four times (freestyle)
        out.sort_by_key(|w| (w.cells, w.ends));
        out.dedup_by_key(|w| (w.cells, w.ends));
        out
    }

    /// The board's symmetries as cell maps, and their inverses.
    fn make_symmetries(&mut self) {
        let (w, h) = (self.width, self.height);
        let count = if w == h { 8 } else { 4 };
        for sym in 0..count {
            let mut map = [0u8; MAX_CELLS];
            let mut inv = [0u8; MAX_CELLS];
            for (c, image) in map.iter_mut().enumerate().take(self.cells()) {
                let (x, y) = map_cell(sym, w, h, c % w, c / w);
                *image = (y * w + x) as u8;
                inv[y * w + x] = c as u8;
            }
            self.sym_cell.push(map);
            self.inv_cell.push(inv);
        }
    }

    /// The position of `stones` under every symmetry.
    fn pos(&self, first: u64, second: u64) -> Pos {
        let mut p = Pos {
            keys: [0; 8],
            first: 0,
            second: 0,
        };
        for (bits, is_first) in [(first, true), (second, false)] {
            let mut b = bits;
            while b != 0 {
                p = self.place(&p, b.trailing_zeros() as usize, is_first);
                b &= b - 1;
            }
        }
        p
    }

    /// `p` with a stone of the first (or second) player on `c`.
    fn place(&self, p: &Pos, c: usize, first: bool) -> Pos {
        let mut q = *p;
        let shift = if first { 0 } else { self.cells() };
        for (key, map) in q.keys.iter_mut().zip(&self.sym_cell) {
            *key |= 1u128 << (map[c] as usize + shift);
        }
        if first {
            q.first |= 1 << c;
        } else {
            q.second |= 1 << c;
        }
        q
    }

    /// `p` after the side to move plays `c`.
    fn play(&self, p: &Pos, c: usize) -> Pos {
        self.place(p, c, p.first_to_move())
    }

    /// The position reduced over the symmetries, and the symmetry that reduces it.
    fn canonical(&self, p: &Pos) -> (u128, usize) {
        let mut best = (p.keys[0], 0);
        for (s, &key) in p.keys.iter().enumerate().take(self.sym_cell.len()).skip(1) {
            if key < best.0 {
                best = (key, s);
            }
        }
        best
    }

    /// Whether the stones `me` hold a winning line.
    pub fn has_line(&self, me: u64) -> bool {
        self.windows.iter().any(|w| {
            w.cells & me == w.cells && (self.rule == SolveRule::Freestyle || w.ends & me == 0)
        })
    }

    /// Whether `me` can still complete a line in `window` against `op`'s stones.
    fn open_for(&self, w: &Window, me: u64, op: u64) -> bool {
        w.cells & op == 0 && !(self.rule == SolveRule::Exact && w.ends & me != 0)
    }

    /// Both sides' completing cells and potentials, the side to move (`me`) having
    /// `my_moves` stones left to play and the other `op_moves`, in one pass over the lines.
    fn threats(&self, me: u64, op: u64, my_moves: u32, op_moves: u32) -> Threats {
        let k = self.k as u32;
        let mut t = Threats::default();
        for w in &self.windows {
            if self.open_for(w, me, op) {
                let n = (w.cells & me).count_ones();
                if n + 1 == k {
                    t.my_wins |= w.cells & !me;
                }
                if k - n <= my_moves {
                    t.my_pot = t.my_pot.saturating_add(1 << n);
                }
            }
            if self.open_for(w, op, me) {
                let n = (w.cells & op).count_ones();
                if n + 1 == k {
                    t.op_wins |= w.cells & !op;
                }
                if k - n <= op_moves {
                    t.op_pot = t.op_pot.saturating_add(1 << n);
                }
            }
        }
        t
    }

    /// 2^`e` saturated to `u64::MAX`: the potential that the Erdős–Selfridge bound needs.
    fn pow2(e: usize) -> u64 {
        if e >= 64 {
            u64::MAX
        } else {
            1 << e
        }
    }
}

/// Symmetry `sym` of a `w`×`h` board applied to (x, y): 0 to 3 mirror the axes, 4 to 7
/// (square boards only) also swap them.
fn map_cell(sym: usize, w: usize, h: usize, x: usize, y: usize) -> (usize, usize) {
    let (x, y) = if sym >= 4 { (y, x) } else { (x, y) };
    let (w, h) = if sym >= 4 { (h, w) } else { (w, h) };
    (
        if sym & 1 == 1 { w - 1 - x } else { x },
        if sym & 2 == 2 { h - 1 - y } else { y },
    )
}

/// A position: the stones of the first and second player. The side to move follows from
/// the counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stones {
    pub first: u64,
    pub second: u64,
}

impl Stones {
    /// The position after the side to move plays `c`.
    pub fn with(self, c: usize) -> Stones {
        let b = 1u64 << c;
        if self.first.count_ones() == self.second.count_ones() {
            Stones {
                first: self.first | b,
                ..self
            }
        } else {
            Stones {
                second: self.second | b,
                ..self
            }
        }
    }
}

/// What [`Solver::solve`] found.
#[derive(Clone, Debug)]
pub struct Report {
    /// For the first player.
    pub value: Value,
    /// Every first move that keeps the value, as (x, y).
    pub best: Vec<(usize, usize)>,
    /// A principal line: the winner completes a line at once when it can, the other side
    /// blocks a single threat; otherwise the first move (nearest the centre) that keeps the
    /// value.
    pub pv: Vec<(usize, usize)>,
    pub nodes: u64,
    pub elapsed_ms: u128,
}

/// Solves the m,n,k game on an empty board (convenience for tests and the front-end).
pub fn solve(
    width: usize,
    height: usize,
    k: usize,
    rule: SolveRule,
    table_bits: u32,
    progress: &mut dyn FnMut(usize, usize),
) -> Result<Report, String> {
    let game = Game::new(width, height, k, rule)?;
    Ok(Solver::new(game, table_bits).solve(progress))
}
