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
//!   needs more stones than that side has moves left) can at best draw, which bounds the
//!   value; when neither side can, the game is a draw.

use std::time::Instant;

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
    /// `sym_bytes[s][i][b]`: the image under symmetry `s` of byte `i` of a bitboard with value `b`.
    sym_bytes: Vec<[[u64; 256]; 8]>,
    /// Cells in static move order: nearest the centre first.
    order: Vec<u8>,
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
            sym_bytes: Vec::new(),
            order: Vec::new(),
        };
        g.windows = g.make_windows();
        g.sym_bytes = g.make_symmetries();
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
                    out.push(Window {
                        cells: cells.iter().fold(0, |a, b| a | b),
                        ends: before | after,
                    });
                }
            }
        }
        out
    }

    /// The board's symmetries as byte lookup tables.
    fn make_symmetries(&self) -> Vec<[[u64; 256]; 8]> {
        let (w, h) = (self.width, self.height);
        let count = if w == h { 8 } else { 4 };
        (0..count)
            .map(|sym| {
                let mut t = [[0u64; 256]; 8];
                for (i, table) in t.iter_mut().enumerate() {
                    for (b, image) in table.iter_mut().enumerate() {
                        for j in 0..8 {
                            let c = i * 8 + j;
                            if b >> j & 1 == 1 && c < self.cells() {
                                let (x, y) = map_cell(sym, w, h, c % w, c / w);
                                *image |= 1 << (y * w + x);
                            }
                        }
                    }
                }
                t
            })
            .collect()
    }

    fn transform(&self, s: usize, bits: u64) -> u64 {
        let t = &self.sym_bytes[s];
        (0..8).fold(0, |a, i| a | t[i][(bits >> (8 * i)) as u8 as usize])
    }

    /// The position (stones of the first and second player) reduced over the symmetries.
    fn canonical(&self, first: u64, second: u64) -> (u64, u64) {
        (0..self.sym_bytes.len())
            .map(|s| (self.transform(s, first), self.transform(s, second)))
            .min()
            .expect("the identity is always there")
    }

    /// Whether the stones `me` hold a winning line.
    pub fn has_line(&self, me: u64) -> bool {
        self.windows.iter().any(|w| {
            w.cells & me == w.cells && (self.rule == SolveRule::Freestyle || w.ends & me == 0)
        })
    }

    /// Scans the lines once for the side `me` against `op`: the empty cells that complete a
    /// line for `me`, and whether `me` can still complete one with `moves` more stones.
    fn scan(&self, me: u64, op: u64, moves: u32) -> (u64, bool) {
        let t = self.threats(me, op, moves, 0);
        (t.my_wins, t.my_live)
    }

    /// Both sides' completing cells and whether each can still complete a line, the side to
    /// move (`me`) having `my_moves` stones left to play, in one pass over the lines.
    fn threats(&self, me: u64, op: u64, my_moves: u32, op_moves: u32) -> Threats {
        let exact = self.rule == SolveRule::Exact;
        let k = self.k as u32;
        let mut t = Threats::default();
        for w in &self.windows {
            let (mine, theirs) = (w.cells & me, w.cells & op);
            if theirs == 0 && !(exact && w.ends & me != 0) {
                let missing = k - mine.count_ones();
                if missing == 1 {
                    t.my_wins |= w.cells & !me;
                }
                t.my_live |= missing <= my_moves;
            }
            if mine == 0 && !(exact && w.ends & op != 0) {
                let missing = k - theirs.count_ones();
                if missing == 1 {
                    t.op_wins |= w.cells & !op;
                }
                t.op_live |= missing <= op_moves;
            }
        }
        t
    }
}

/// What [`Game::threats`] finds.
#[derive(Default)]
struct Threats {
    my_wins: u64,
    op_wins: u64,
    my_live: bool,
    op_live: bool,
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

/// A transposition table entry: a canonical position and what is known of its value.
#[derive(Clone, Copy, Default)]
struct Entry {
    first: u64,
    second: u64,
    value: i8,
    bound: u8,
    /// Empty cells: entries nearer the root (more empties) are kept first.
    empties: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The solver: a game, its transposition table and counters.
pub struct Solver {
    pub game: Game,
    table: Vec<Entry>,
    history: [u32; MAX_CELLS],
    pub nodes: u64,
}

/// A position: the stones of the first and second player. The side to move follows from
/// the counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stones {
    pub first: u64,
    pub second: u64,
}

impl Stones {
    fn first_to_move(self) -> bool {
        self.first.count_ones() == self.second.count_ones()
    }
    /// (side to move, other side).
    fn sides(self) -> (u64, u64) {
        if self.first_to_move() {
            (self.first, self.second)
        } else {
            (self.second, self.first)
        }
    }
    fn with(self, c: usize) -> Stones {
        let b = 1u64 << c;
        if self.first_to_move() {
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

impl Solver {
    /// A solver whose table holds 2^`table_bits` entries (24 bytes each).
    pub fn new(game: Game, table_bits: u32) -> Solver {
        Solver {
            game,
            table: vec![Entry::default(); 1 << table_bits],
            history: [0; MAX_CELLS],
            nodes: 0,
        }
    }

    /// Solves the empty board. `progress(done, total)` is called as the distinct first moves
    /// are solved.
    pub fn solve(&mut self, progress: &mut dyn FnMut(usize, usize)) -> Report {
        let start = Instant::now();
        let root = Stones::default();
        let (value, best) = self.root_moves(root, progress);
        let pv = self.principal_line(root, value);
        Report {
            value,
            best: best.iter().map(|&c| self.game.xy(c)).collect(),
            pv: pv.iter().map(|&c| self.game.xy(c)).collect(),
            nodes: self.nodes,
            elapsed_ms: start.elapsed().as_millis(),
        }
    }

    /// The value of `pos` for the side to move, and every move that reaches it.
    fn root_moves(
        &mut self,
        pos: Stones,
        progress: &mut dyn FnMut(usize, usize),
    ) -> (Value, Vec<usize>) {
        let empty = self.game.full() & !(pos.first | pos.second);
        let cells: Vec<usize> = self
            .game
            .order
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| empty >> c & 1 == 1)
            .collect();
        if cells.is_empty() {
            return (0, Vec::new());
        }
        // one search per first move up to symmetry
        let mut seen: Vec<((u64, u64), Value)> = Vec::new();
        let keys: Vec<(u64, u64)> = cells
            .iter()
            .map(|&c| {
                let s = pos.with(c);
                self.game.canonical(s.first, s.second)
            })
            .collect();
        let total = keys
            .iter()
            .enumerate()
            .filter(|(i, k)| !keys[..*i].contains(k))
            .count();
        for (&c, &key) in cells.iter().zip(&keys) {
            if seen.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let v = -self.value_after(pos, c);
            seen.push((key, v));
            progress(seen.len(), total);
        }
        let value = seen.iter().map(|s| s.1).max().unwrap_or(0);
        let best = cells
            .iter()
            .zip(&keys)
            .filter(|(_, k)| seen.iter().any(|(sk, v)| sk == *k && *v == value))
            .map(|(&c, _)| c)
            .collect();
        (value, best)
    }

    /// The value for the side to move after the side to move in `pos` plays `c`.
    fn value_after(&mut self, pos: Stones, c: usize) -> Value {
        let (me, _) = pos.sides();
        if self.game.has_line(me | 1 << c) {
            return -1;
        }
        self.search(pos.with(c), -1, 1)
    }

    /// The exact value of `pos` for the side to move.
    pub fn value(&mut self, pos: Stones) -> Value {
        let (_, op) = pos.sides();
        if self.game.has_line(op) {
            return -1;
        }
        self.search(pos, -1, 1)
    }

    /// A line of best play from `pos` (worth `value` to the side to move). To keep wins
    /// short, the winner tries first the moves that leave it the most completing cells, and
    /// the loser plays the move that leaves the winner the fewest (every loser's move loses,
    /// so that one needs no search).
    fn principal_line(&mut self, mut pos: Stones, mut value: Value) -> Vec<usize> {
        let mut line = Vec::new();
        let full = self.game.full();
        loop {
            let empty = full & !(pos.first | pos.second);
            if empty == 0 {
                return line;
            }
            let (me, op) = pos.sides();
            let (my_wins, _) = self.game.scan(me, op, MAX_CELLS as u32);
            if my_wins != 0 {
                line.push(my_wins.trailing_zeros() as usize);
                return line;
            }
            // the winner's completing cells after each move, nearest the centre first
            let mut moves: Vec<(usize, u32)> = self
                .game
                .order
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| empty >> c & 1 == 1)
                .map(|c| {
                    let (after_me, after_op) = pos.with(c).sides();
                    let (mover, other) = if value < 0 {
                        (after_me, after_op)
                    } else {
                        (after_op, after_me)
                    };
                    (
                        c,
                        self.game
                            .scan(mover, other, MAX_CELLS as u32)
                            .0
                            .count_ones(),
                    )
                })
                .collect();
            let c = if value < 0 {
                moves.iter().min_by_key(|m| m.1).map(|m| m.0)
            } else {
                moves.sort_by_key(|m| std::cmp::Reverse(m.1));
                moves
                    .iter()
                    .map(|m| m.0)
                    .find(|&c| -self.value_after(pos, c) == value)
            };
            let Some(c) = c else { return line };
            line.push(c);
            pos = pos.with(c);
            value = -value;
        }
    }

    fn probe(&self, key: (u64, u64)) -> Option<Entry> {
        let i = self.slot(key);
        [i, i ^ 1]
            .into_iter()
            .map(|j| self.table[j])
            .find(|e| e.bound != 0 && (e.first, e.second) == key)
    }

    fn store(&mut self, key: (u64, u64), value: Value, bound: u8, empties: u8) {
        let i = self.slot(key);
        let j = if (self.table[i].first, self.table[i].second) == key {
            i
        } else if (self.table[i ^ 1].first, self.table[i ^ 1].second) == key {
            i ^ 1
        } else if self.table[i].empties <= self.table[i ^ 1].empties {
            i
        } else {
            i ^ 1
        };
        self.table[j] = Entry {
            first: key.0,
            second: key.1,
            value,
            bound,
            empties,
        };
    }

    fn slot(&self, key: (u64, u64)) -> usize {
        let h =
            (key.0.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ key.1).wrapping_mul(0xD6E8_FEB8_6659_FD93);
        (h >> 32) as usize & (self.table.len() - 1)
    }

    /// Negamax alpha-beta over -1, 0, 1 for the side to move; the last move did not win.
    fn search(&mut self, pos: Stones, mut alpha: Value, mut beta: Value) -> Value {
        self.nodes += 1;
        let g = &self.game;
        let empty = g.full() & !(pos.first | pos.second);
        let empties = empty.count_ones();
        if empties == 0 {
            return 0;
        }
        let (me, op) = pos.sides();
        let Threats {
            my_wins,
            op_wins,
            my_live,
            op_live,
        } = g.threats(me, op, empties.div_ceil(2), empties / 2);
        if my_wins != 0 {
            return 1;
        }
        if op_wins.count_ones() >= 2 {
            return -1;
        }
        // what each side can still do bounds the value
        let (lo, hi) = (if op_live { -1 } else { 0 }, if my_live { 1 } else { 0 });
        if hi <= alpha || lo >= beta || lo == hi {
            return if hi <= alpha { hi } else { lo };
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let key = g.canonical(pos.first, pos.second);
        if let Some(e) = self.probe(key) {
            match e.bound {
                EXACT => return e.value,
                LOWER if e.value >= beta => return e.value,
                UPPER if e.value <= alpha => return e.value,
                LOWER => alpha = alpha.max(e.value),
                _ => beta = beta.min(e.value),
            }
        }
        let alpha0 = alpha;
        let cells = if op_wins != 0 { op_wins } else { empty };
        let moves = self.ordered_moves(me, op, cells, empties);
        let mut best = -1;
        for &c in &moves.cells[..moves.len] {
            let c = c as usize;
            // no move completes our line here (my_wins is empty)
            let v = -self.search(pos.with(c), -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                }
                if v >= beta {
                    self.history[c] = self.history[c].saturating_add(empties * empties);
                    break;
                }
            }
        }
        let bound = if best <= alpha0 {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.store(key, best, bound, empties as u8);
        best
    }

    /// The moves among `cells`, best first: cells in many lines that either side can still
    /// complete, weighted by the stones already in them, then by history and centre. Under
    /// freestyle a cell in no such line is a pass in effect, and a stone more never hurts
    /// there, so such cells are dropped while another move is left (exact).
    fn ordered_moves(&self, me: u64, op: u64, cells: u64, empties: u32) -> Moves {
        let g = &self.game;
        let exact = g.rule == SolveRule::Exact;
        let k = g.k as u32;
        let (my_moves, op_moves) = (empties.div_ceil(2), empties / 2);
        let mut score = [0u32; MAX_CELLS];
        let mut add = |m: u64, v: u32| {
            let mut m = m & cells;
            while m != 0 {
                score[m.trailing_zeros() as usize] += v;
                m &= m - 1;
            }
        };
        for w in &g.windows {
            let (mine, theirs) = (w.cells & me, w.cells & op);
            if theirs == 0 && !(exact && w.ends & me != 0) {
                let n = mine.count_ones();
                if k - n <= my_moves {
                    add(w.cells & !me, 3 << (3 * n));
                }
            }
            if mine == 0 && !(exact && w.ends & op != 0) {
                let n = theirs.count_ones();
                if k - n <= op_moves {
                    add(w.cells & !op, 2 << (3 * n));
                }
            }
        }
        let mut moves = Moves {
            cells: [0; MAX_CELLS],
            len: 0,
        };
        let keep_dead = exact || !g.order.iter().any(|&c| score[c as usize] > 0);
        for &c in &g.order {
            if cells >> c & 1 == 1 && (keep_dead || score[c as usize] > 0) {
                moves.cells[moves.len] = c;
                moves.len += 1;
            }
        }
        // stable: ties keep the centre order
        moves.cells[..moves.len]
            .sort_by_key(|&c| std::cmp::Reverse((score[c as usize], self.history[c as usize])));
        moves
    }
}

/// Moves in search order, without allocating.
struct Moves {
    cells: [u8; MAX_CELLS],
    len: usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    fn value(w: usize, h: usize, k: usize) -> Value {
        solve(w, h, k, SolveRule::Freestyle, 16, &mut |_, _| {})
            .unwrap()
            .value
    }

    #[test]
    fn tic_tac_toe_is_a_draw_and_every_first_move_keeps_it() {
        let r = solve(3, 3, 3, SolveRule::Freestyle, 12, &mut |_, _| {}).unwrap();
        assert_eq!(r.value, 0);
        assert_eq!(r.best.len(), 9);
        assert_eq!(r.pv.len(), 9, "a drawn game fills the board: {:?}", r.pv);
    }

    #[test]
    fn small_known_values() {
        assert_eq!(value(3, 3, 2), 1);
        assert_eq!(value(1, 1, 1), 1);
        assert_eq!(value(2, 2, 3), 0);
        assert_eq!(value(4, 3, 3), 1);
        assert_eq!(value(3, 4, 3), 1);
    }

    #[test]
    fn windows_and_lines() {
        let g = Game::new(4, 3, 3, SolveRule::Freestyle).unwrap();
        // rows 2*3, columns 4*1, diagonals 2*1 each way
        assert_eq!(g.windows.len(), 6 + 4 + 2 + 2);
        assert!(g.has_line(0b0111));
        assert!(!g.has_line(0b1011));
        let exact = Game::new(5, 1, 3, SolveRule::Exact).unwrap();
        assert!(exact.has_line(0b00111));
        assert!(!exact.has_line(0b01111), "an overline does not win");
        assert!(Game::new(9, 8, 4, SolveRule::Freestyle).is_err());
    }

    #[test]
    fn symmetric_positions_share_a_key() {
        let g = Game::new(4, 4, 4, SolveRule::Freestyle).unwrap();
        // a stone in each corner, one by one
        let keys: Vec<_> = [0, 3, 12, 15]
            .iter()
            .map(|&c| g.canonical(1 << c, 0))
            .collect();
        assert!(keys.iter().all(|&k| k == keys[0]));
        assert_ne!(g.canonical(1 << 5, 0), keys[0]);
        // a rectangle has no diagonal mirror: (1,0) and (0,1) differ on 4x3
        let r = Game::new(4, 3, 3, SolveRule::Freestyle).unwrap();
        assert_ne!(r.canonical(1 << 1, 0), r.canonical(1 << 4, 0));
    }

    #[test]
    fn a_forced_loss_is_seen() {
        // 4x1, k=2: first plays anywhere, second can block one side only if... first wins
        // by the centre: b1 then a1 or c1
        let g = Game::new(4, 1, 2, SolveRule::Freestyle).unwrap();
        let mut s = Solver::new(g, 8);
        assert_eq!(s.value(Stones::default()), 1);
        // second to move after first took a1 on 3x1: second blocks b1 and draws
        let g = Game::new(3, 1, 2, SolveRule::Freestyle).unwrap();
        let mut s = Solver::new(g, 8);
        let pos = Stones {
            first: 1,
            second: 0,
        };
        assert_eq!(s.value(pos), 0);
    }

    #[test]
    fn an_overline_wins_only_in_freestyle() {
        // 5x2, k=3: first a1 b1 d1, second a2 c2 e2, first to move
        let pos = Stones {
            first: 0b01011,
            second: 1 << 5 | 1 << 7 | 1 << 9,
        };
        let free = Game::new(5, 2, 3, SolveRule::Freestyle).unwrap();
        assert_eq!(Solver::new(free, 8).value(pos), 1, "c1 makes four");
        // c1 is an overline; second then has b2 and d2 for exactly three
        let exact = Game::new(5, 2, 3, SolveRule::Exact).unwrap();
        assert_eq!(Solver::new(exact, 8).value(pos), -1);
    }

    #[test]
    fn the_principal_line_is_played_out_and_short() {
        for (w, h, k, plies) in [(4, 4, 3, 5), (4, 3, 3, 7)] {
            let r = solve(w, h, k, SolveRule::Freestyle, 12, &mut |_, _| {}).unwrap();
            assert_eq!(r.value, 1);
            let g = Game::new(w, h, k, SolveRule::Freestyle).unwrap();
            let mut pos = Stones::default();
            for (i, &(x, y)) in r.pv.iter().enumerate() {
                let c = y * w + x;
                assert_eq!((pos.first | pos.second) >> c & 1, 0, "{:?}", r.pv);
                assert!(!g.has_line(pos.first), "a line before the end: {:?}", r.pv);
                pos = pos.with(c);
                assert_eq!(g.has_line(pos.first), i + 1 == r.pv.len());
            }
            // 4x4: three first-player stones, the fewest a win needs; 4x3: second blocks
            // the first threat, so the win takes a fourth stone
            assert_eq!(r.pv.len(), plies, "{w}x{h}: {:?}", r.pv);
        }
    }
}
