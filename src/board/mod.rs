//! The board: stones on a padded grid, Zobrist hash, move history, and threat data kept up to
//! date incrementally on every move and restored from saved values on undo.
//!
//! Boards are any size from 5×5 to 32×32, rectangular too. Cells live in a fixed 42×42 array
//! with a 5-cell wall border, so a move touches cells at offsets ±5 along a line without any
//! bounds checks, and a [`Pos`] is one index into that array whatever the board size.

use crate::pattern::{slot, Pattern, PatternTables, Threat, NEEDS_FOUL_CHECK, THREAT_COUNT};
use crate::rules::{self, Foul, Rule};
use std::fmt;
use std::sync::OnceLock;

mod accumulator;
mod check;
pub mod diagram;
mod line;
pub use accumulator::{Accumulator, Classical, ClassicalSums, Network, Shipped};
pub use line::{pools_from_scratch, LineNetwork, LineState, Pools};

pub use crate::geometry::{Color, Grid, Pos, DIR_OFFSETS, GRID_CELLS, MAX_SIZE, MIN_SIZE, STRIDE};
use crate::geometry::{EMPTY, WALL};

/// Threat data of one empty cell.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct CellInfo {
    /// `pat[color][dir]`: the [`Pattern`] a stone of that colour would make on each line.
    pub pat: [[u8; 4]; 2],
    /// `threat[color]`: the [`Threat`] class (after renju's exact check for black).
    pub threat: [u8; 2],
    /// Black's class byte straight from the table, with [`NEEDS_FOUL_CHECK`].
    raw_black: u8,
    /// `code[color]`: the pattern code of the four lines ([`crate::cells`]).
    pub code: [u16; 2],
}

impl CellInfo {
    #[inline]
    pub fn threat(&self, c: Color) -> Threat {
        Threat::from_u8(self.threat[c.index()])
    }
    #[inline]
    pub fn pattern(&self, c: Color, dir: usize) -> Pattern {
        Pattern::from_u8(self.pat[c.index()][dir])
    }
}

/// Saved per-move state, restored on undo.
#[derive(Clone)]
struct State<S> {
    log_len: usize,
    counts: [[u16; THREAT_COUNT]; 2],
    fouls: u16,
    /// The accumulator's sums.
    acc: S,
    bbox: [u8; 4],
    hash: u64,
    /// The side to move that `hash` encodes (a set-up position may have changed it since).
    side: Color,
}

struct Zobrist {
    stones: Vec<[u64; 2]>,
    side: u64,
}

fn zobrist() -> &'static Zobrist {
    static Z: OnceLock<Zobrist> = OnceLock::new();
    Z.get_or_init(|| {
        // from a fixed seed: the same keys on every machine and every run
        let mut rng = crate::rng::SplitMix64::new(0x5245_4e53_4120_3031);
        let mut next = || rng.next_u64();
        let stones = (0..GRID_CELLS).map(|_| [next(), next()]).collect();
        let side = next();
        Zobrist { stones, side }
    })
}

/// Cells whose "near" count a stone raises: the 5×5 square around it. (Adding the lines out
/// to 3 cost 23 +/- 48 Elo in self-play at 100 ms a move: more moves, no better ones. With
/// move-count pruning, session 18: Rapfi's square3_line4, the 7×7 square and the lines out
/// to 4, played -11 [-31, +9] at 100 ms, 18 % fewer nodes a move, and at the root only -1
/// [-21, +18]: 500 games each, freestyle. Threat points lie within two cells of a stone on
/// their line, so the threat searches' trees did not change.)
const NEAR_REACH: [(isize, isize); 24] = {
    let mut out = [(0isize, 0isize); 24];
    let mut n = 0;
    let mut dy = -2;
    while dy <= 2 {
        let mut dx = -2;
        while dx <= 2 {
            if dx != 0 || dy != 0 {
                out[n] = (dx, dy);
                n += 1;
            }
            dx += 1;
        }
        dy += 1;
    }
    out
};

/// The game board with incremental threat data, and the sums of the evaluation's
/// accumulator `A` (by default the evaluation the engine plays with, [`Shipped`]).
#[derive(Clone)]
pub struct Board<A: Accumulator = Shipped> {
    rule: Rule,
    tables: &'static PatternTables,
    grid: Grid,
    keys: Vec<[u32; 4]>,
    info: Vec<CellInfo>,
    near: Vec<u8>,
    counts: [[u16; THREAT_COUNT]; 2],
    /// Empty cells whose raw black class is forbidden (see [`Board::lasting_fouls`]).
    fouls: u16,
    acc: A,
    hash: u64,
    /// Each colour's stones alone, hashed (keys of the search's evaluation corrections).
    colour_hash: [u64; 2],
    side: Color,
    moves: Vec<(Pos, Color)>,
    states: Vec<State<A::Saved>>,
    log: Vec<(u16, CellInfo)>,
    /// Stones' bounding box: x0, y0, x1, y1 (x0 > x1 when there are no stones).
    bbox: [u8; 4],
    stones: usize,
    /// Cells blocked for both colours (BOARD field 3 in continuous games).
    walls: Vec<Pos>,
}

/// See [`Board::sampled_check`].
#[cfg(debug_assertions)]
const DEBUG_CHECK_EVERY: u32 = 4096;

impl<A: Accumulator> fmt::Debug for Board<A> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{}", self.diagram())
    }
}

impl Board {
    /// An empty `width`×`height` board, black to move, with the sums of the evaluation the
    /// engine plays `rule` with.
    pub fn new(width: usize, height: usize, rule: Rule) -> Board {
        Board::with_accumulator(width, height, rule, Shipped::shipped(rule, width, height))
    }

    /// Builds a board from a diagram (`x` black, `o` white, `.` or `-` empty, one row per
    /// line, cells separated by spaces or not). The side to move follows the stone counts:
    /// black when equal, else white. Stones go down black/white alternately where possible,
    /// so the history is a plausible game.
    pub fn from_diagram(text: &str, rule: Rule) -> Board {
        let d = diagram::Diagram::parse(text).unwrap_or_else(|e| panic!("diagram: {e}"));
        let acc = Shipped::shipped(rule, d.width, d.height);
        Board::from_parsed_diagram(&d, rule, acc)
    }
}

impl Board<Classical> {
    /// How many (empty cell, line) pairs give colour `c` the line pattern `p`.
    #[inline]
    pub fn pattern_count(&self, c: Color, p: Pattern) -> u16 {
        self.acc.pattern_count(c, p)
    }
}

impl<A: Accumulator> Board<A> {
    /// An empty `width`×`height` board, black to move, keeping the sums of `acc`.
    pub fn with_accumulator(width: usize, height: usize, rule: Rule, acc: A) -> Board<A> {
        assert!((MIN_SIZE..=MAX_SIZE).contains(&width) && (MIN_SIZE..=MAX_SIZE).contains(&height));
        let grid = Grid::new(width, height);
        let mut b = Board {
            rule,
            tables: PatternTables::get(rule),
            grid,
            keys: vec![[0; 4]; GRID_CELLS],
            info: vec![CellInfo::default(); GRID_CELLS],
            near: vec![0; GRID_CELLS],
            counts: [[0; THREAT_COUNT]; 2],
            fouls: 0,
            acc,
            hash: 0,
            colour_hash: [0; 2],
            side: Color::Black,
            moves: Vec::with_capacity(width * height),
            states: Vec::with_capacity(width * height),
            log: Vec::with_capacity(64 * width * height),
            bbox: [u8::MAX, u8::MAX, 0, 0],
            stones: 0,
            walls: Vec::new(),
        };
        b.recompute_all();
        b
    }

    pub fn width(&self) -> usize {
        self.grid.width
    }
    pub fn height(&self) -> usize {
        self.grid.height
    }
    pub fn rule(&self) -> Rule {
        self.rule
    }
    pub fn grid(&self) -> &Grid {
        &self.grid
    }
    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The Zobrist hash of colour `c`'s stones alone (no side to move, no other stones).
    #[inline]
    pub fn colour_hash(&self, c: Color) -> u64 {
        self.colour_hash[c.index()]
    }
    /// Stones on the board.
    pub fn stone_count(&self) -> usize {
        self.stones
    }
    pub fn cell_count(&self) -> usize {
        self.width() * self.height()
    }
    pub fn is_full(&self) -> bool {
        self.empty_count() == 0
    }
    /// Cells with neither a stone nor a wall.
    pub fn empty_count(&self) -> usize {
        self.cell_count() - self.stones - self.walls.len()
    }
    /// Moves played, passes included, oldest first; a pass is `Pos::NONE`.
    pub fn history(&self) -> &[(Pos, Color)] {
        &self.moves
    }
    pub fn last_move(&self) -> Option<(Pos, Color)> {
        self.moves.last().copied()
    }
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Whether `p` is a cell of this board (empty, a stone or a wall).
    pub fn contains(&self, p: Pos) -> bool {
        p.coords()
            .is_some_and(|(x, y)| x < self.width() && y < self.height())
    }
    pub fn on_board(&self, x: i64, y: i64) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.width() && (y as usize) < self.height()
    }
    /// The stone on `p`, if any.
    pub fn stone(&self, p: Pos) -> Option<Color> {
        match self.grid.cells[p.index()] {
            1 => Some(Color::Black),
            2 => Some(Color::White),
            _ => None,
        }
    }
    #[inline]
    pub fn is_empty(&self, p: Pos) -> bool {
        self.grid.cells[p.index()] == EMPTY
    }
    /// The threat data of an empty cell (meaningless for occupied ones).
    #[inline]
    pub fn cell(&self, p: Pos) -> &CellInfo {
        &self.info[p.index()]
    }
    #[inline]
    pub fn threat(&self, c: Color, p: Pos) -> Threat {
        self.info[p.index()].threat(c)
    }
    /// How many empty cells have threat class `t` for colour `c`.
    #[inline]
    pub fn count(&self, c: Color, t: Threat) -> u16 {
        self.counts[c.index()][t as usize]
    }
    /// How many empty cells have a class of at least `t` for colour `c`.
    pub fn count_at_least(&self, c: Color, t: Threat) -> u32 {
        self.counts[c.index()][t as usize..]
            .iter()
            .map(|&n| n as u32)
            .sum()
    }
    /// Whether any empty cell lets `c` make a four or better.
    pub fn has_four_move(&self, c: Color) -> bool {
        self.count_at_least(c, Threat::Block4) > 0
    }

    /// Whether the side to move may play `p`: on the board, empty and, for black under
    /// renju, not forbidden.
    pub fn is_legal(&self, p: Pos) -> bool {
        let i = p.index();
        if i >= GRID_CELLS || self.grid.cells[i] != EMPTY {
            return false;
        }
        !(self.side == Color::Black && self.is_forbidden(p))
    }

    /// Whether black may not play on the empty cell `p` (always false but under renju).
    pub fn is_forbidden(&self, p: Pos) -> bool {
        if !self.rule.has_forbidden() {
            return false;
        }
        let raw = self.info[p.index()].raw_black;
        if raw & NEEDS_FOUL_CHECK != 0 {
            return self.foul(p).is_some();
        }
        raw == Threat::Forbid as u8
    }

    /// How many empty cells are forbidden to black for as long as white leaves them:
    /// overlines and double fours, not the double-three candidates (a block undoes those).
    /// 0 but under renju.
    pub fn lasting_fouls(&self) -> usize {
        self.fouls as usize
    }

    /// The exact renju verdict for black on the empty cell `p` (slow: recursive).
    pub fn foul(&self, p: Pos) -> Option<Foul> {
        if !self.rule.has_forbidden() || !self.is_empty(p) {
            return None;
        }
        let mut g = self.grid.clone();
        rules::renju_foul(&mut g, p)
    }

    /// Whether `c` playing the empty cell `p` makes a winning line.
    #[inline]
    pub fn is_win_move(&self, c: Color, p: Pos) -> bool {
        self.info[p.index()].threat[c.index()] == Threat::Five as u8
    }

    /// Whether the stone on `p` is part of a winning line (the slow, direct check).
    pub fn is_five_at(&self, p: Pos) -> bool {
        match self.stone(p) {
            Some(c) => rules::is_five_at(&self.grid, self.rule, p, c),
            None => false,
        }
    }

    /// Empty cells near stones (or the centre on an empty board), by cell index.
    pub fn candidates(&self, out: &mut Vec<Pos>) {
        out.clear();
        if self.stones == 0 {
            // the centre, or with it blocked (BOARD field 3) every empty cell
            let c = self.center();
            if self.is_empty(c) {
                out.push(c);
            } else {
                out.extend(self.empty_cells());
            }
            return;
        }
        let [x0, y0, x1, y1] = self.bbox;
        let x0 = (x0 as usize).saturating_sub(3);
        let y0 = (y0 as usize).saturating_sub(3);
        let x1 = (x1 as usize + 3).min(self.width() - 1);
        let y1 = (y1 as usize + 3).min(self.height() - 1);
        for y in y0..=y1 {
            for x in x0..=x1 {
                let p = Pos::new(x, y);
                if self.near[p.index()] > 0 && self.grid.cells[p.index()] == EMPTY {
                    out.push(p);
                }
            }
        }
    }

    /// Squared distance of `p` from the centre: the fallback order of cells when nothing
    /// near the stones will do.
    pub fn centre_distance2(&self, p: Pos) -> usize {
        let c = self.center();
        let (dx, dy) = (p.x().abs_diff(c.x()), p.y().abs_diff(c.y()));
        dx * dx + dy * dy
    }

    /// Every empty cell, by cell index.
    pub fn empty_cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.height()).flat_map(move |y| {
            (0..self.width())
                .map(move |x| Pos::new(x, y))
                .filter(|&p| self.is_empty(p))
        })
    }

    pub fn center(&self) -> Pos {
        Pos::new(self.width() / 2, self.height() / 2)
    }

    /// Plays the side to move on `p`, which must be empty and on the board.
    pub fn make(&mut self, p: Pos) {
        let c = self.side;
        self.put(p, c);
    }

    /// The hash after [`Board::make`]`(p)`, without making it (to fetch the child's table
    /// entry while the move is made).
    #[inline]
    pub fn hash_after(&self, p: Pos) -> u64 {
        let z = zobrist();
        self.hash ^ z.stones[p.index()][self.side.index()] ^ z.side
    }

    /// Puts a stone of colour `c` on the empty cell `p`; then the opponent of `c` is to move.
    pub fn put(&mut self, p: Pos, c: Color) {
        debug_assert!(self.is_empty(p), "put on a non-empty cell {p:?}");
        self.save_state();
        self.moves.push((p, c));
        let z = zobrist();
        self.hash ^= z.stones[p.index()][c.index()];
        self.colour_hash[c.index()] ^= z.stones[p.index()][c.index()];
        if self.side != c.opponent() {
            self.hash ^= z.side;
        }
        self.side = c.opponent();
        self.stones += 1;
        let (x, y) = (p.x() as u8, p.y() as u8);
        self.bbox = [
            self.bbox[0].min(x),
            self.bbox[1].min(y),
            self.bbox[2].max(x),
            self.bbox[3].max(y),
        ];
        // The cell leaves the pool of empty cells.
        let old = self.info[p.index()];
        self.log.push((p.0, old));
        self.remove_counts(p.index(), &old);
        self.grid.cells[p.index()] = c.cell();
        for &(dx, dy) in &NEAR_REACH {
            let q = p.index() as isize + dy * STRIDE as isize + dx;
            self.near[q as usize] += 1;
        }
        // Every empty cell within ±5 on the four lines sees the new stone in its key; a
        // narrow table reads only ±4, so the cells 5 away cannot change.
        let bits = c.cell() as u32;
        let reach = if self.tables.is_narrow() { 4 } else { 5 };
        for (d, &off) in DIR_OFFSETS.iter().enumerate() {
            for k in (-5isize..=5).filter(|&k| k != 0) {
                let q = (p.index() as isize + k * off) as usize;
                self.keys[q][d] |= bits << (2 * slot(-k));
                if k.abs() <= reach && self.grid.cells[q] == EMPTY {
                    self.refresh_cell(q, d);
                }
            }
        }
        self.acc.stone_put(p.index(), &self.grid, &self.keys);
        #[cfg(debug_assertions)]
        self.sampled_check("put");
    }

    /// In debug builds, every [`DEBUG_CHECK_EVERY`]th stone put or taken on this thread checks
    /// the whole board against a fresh recomputation from its stones: every one would make
    /// the tests' searches crawl, and a drift shows up within a few thousand.
    #[cfg(debug_assertions)]
    fn sampled_check(&self, what: &str) {
        thread_local!(static CHANGES: std::cell::Cell<u32> = const { std::cell::Cell::new(0) });
        let n = CHANGES.with(|c| {
            c.set(c.get().wrapping_add(1));
            c.get()
        });
        if n % DEBUG_CHECK_EVERY == 0 {
            if let Err(why) = self.check_consistency() {
                panic!("board inconsistent after a {what}: {why}\n{self:?}");
            }
        }
    }

    /// Cells blocked for both colours, in the order they were blocked.
    pub fn walls(&self) -> &[Pos] {
        &self.walls
    }

    /// Blocks the empty cell `p` for both colours for good (not part of the history). Walls
    /// go before the first stone: undoing a stone restores the cell data saved with it.
    pub fn put_wall(&mut self, p: Pos) {
        debug_assert!(self.is_empty(p));
        let old = self.info[p.index()];
        self.remove_counts(p.index(), &old);
        self.grid.cells[p.index()] = WALL;
        self.walls.push(p);
        for (d, &off) in DIR_OFFSETS.iter().enumerate() {
            for k in (-5isize..=5).filter(|&k| k != 0) {
                let q = (p.index() as isize + k * off) as usize;
                self.keys[q][d] |= (WALL as u32) << (2 * slot(-k));
                if self.grid.cells[q] == EMPTY {
                    self.refresh_cell(q, d);
                }
            }
        }
        self.acc.rebuild(&self.grid, &self.keys);
    }

    /// Saves what undo restores wholesale (cells are restored from the log).
    fn save_state(&mut self) {
        self.states.push(State {
            log_len: self.log.len(),
            counts: self.counts,
            fouls: self.fouls,
            acc: self.acc.save(),
            bbox: self.bbox,
            hash: self.hash,
            side: self.side,
        });
    }

    /// Passes: the other side is to move.
    pub fn pass(&mut self) {
        self.save_state();
        self.moves.push((Pos::NONE, self.side));
        self.hash ^= zobrist().side;
        self.side = self.side.opponent();
    }

    /// Makes `c` the side to move (for positions set up stone by stone).
    pub fn set_side(&mut self, c: Color) {
        if self.side != c {
            self.hash ^= zobrist().side;
            self.side = c;
        }
    }

    /// Takes back the last move or pass. Returns it, or `None` on an empty history.
    pub fn undo(&mut self) -> Option<(Pos, Color)> {
        let (p, c) = self.moves.pop()?;
        let st = self.states.pop().expect("a state per move");
        if !p.is_none() {
            self.acc.stone_taken(p.index(), &self.grid, &self.keys);
            let bits = c.cell() as u32;
            for (d, &off) in DIR_OFFSETS.iter().enumerate() {
                for k in (-5isize..=5).filter(|&k| k != 0) {
                    let q = (p.index() as isize + k * off) as usize;
                    self.keys[q][d] &= !(bits << (2 * slot(-k)));
                }
            }
            for &(dx, dy) in &NEAR_REACH {
                let q = p.index() as isize + dy * STRIDE as isize + dx;
                self.near[q as usize] -= 1;
            }
            self.grid.cells[p.index()] = EMPTY;
            self.stones -= 1;
            self.colour_hash[c.index()] ^= zobrist().stones[p.index()][c.index()];
        }
        while self.log.len() > st.log_len {
            let (q, info) = self.log.pop().expect("log entry");
            self.info[q as usize] = info;
        }
        self.counts = st.counts;
        self.fouls = st.fouls;
        self.acc.restore(st.acc);
        self.bbox = st.bbox;
        // the mover of the undone stone is to move again; the saved hash may encode the other
        // side when the position was set up stone by stone (BOARD lines in any order)
        self.hash = st.hash;
        if st.side != c {
            self.hash ^= zobrist().side;
        }
        self.side = c;
        #[cfg(debug_assertions)]
        self.sampled_check("undo");
        Some((p, c))
    }

    /// Empty cell `q` with data `info` leaves the pool of empty cells.
    fn remove_counts(&mut self, q: usize, info: &CellInfo) {
        for s in 0..2 {
            self.counts[s][info.threat[s] as usize] -= 1;
        }
        self.fouls -= u16::from(info.raw_black == Threat::Forbid as u8);
        self.acc.cell_removed(q, info);
    }

    /// Empty cell `q` with data `info` joins the pool of empty cells.
    fn add_counts(&mut self, q: usize, info: &CellInfo) {
        for s in 0..2 {
            self.counts[s][info.threat[s] as usize] += 1;
        }
        self.fouls += u16::from(info.raw_black == Threat::Forbid as u8);
        self.acc.cell_added(q, info);
    }

    /// Brings what the accumulator keeps lazily up to date, before an evaluation (the search
    /// calls it; an evaluation of a board not flushed is right, but may be slow).
    #[inline]
    pub fn flush_evaluation(&mut self) {
        self.acc.flush(&self.grid, &self.keys);
    }

    /// The evaluation's accumulator, with its sums for this position.
    #[inline]
    pub fn accumulator(&self) -> &A {
        &self.acc
    }

    /// Re-reads line `d` of the empty cell `q` from its key and re-derives its classes,
    /// logging the old data first when anything changes.
    #[inline]
    fn refresh_cell(&mut self, q: usize, d: usize) {
        let key = self.keys[q][d];
        let new = self.tables.patterns(key);
        let old = self.info[q];
        // The four patterns of a colour as one word, changed in a register: writing one
        // byte of a copy in memory and reading the copy back whole stalled the store buffer
        // (a fifth of this function's time).
        let shift = 8 * d as u32;
        let mut words = old.pat.map(u32::from_le_bytes);
        let was = words.map(|w| (w >> shift) as u8);
        if new == was {
            return;
        }
        self.log.push((q as u16, old));
        for s in 0..2 {
            if new[s] != was[s] {
                words[s] = words[s] & !(0xFF << shift) | (new[s] as u32) << shift;
            }
        }
        let pat = words.map(u32::to_le_bytes);
        // only a colour whose line pattern changed needs its classes looked up again
        let (mut threat, mut raw_black, mut code) = (old.threat, old.raw_black, old.code);
        if new[0] != was[0] {
            (threat[0], raw_black, code[0]) = self.classify_black(pat[0]);
            let forbid = Threat::Forbid as u8;
            self.fouls =
                self.fouls + u16::from(raw_black == forbid) - u16::from(old.raw_black == forbid);
        }
        if new[1] != was[1] {
            (threat[1], code[1]) = self.classify_white(pat[1]);
        }
        for (s, counts) in self.counts.iter_mut().enumerate() {
            if threat[s] != old.threat[s] {
                counts[old.threat[s] as usize] -= 1;
                counts[threat[s] as usize] += 1;
            }
        }
        let info = CellInfo {
            pat,
            threat,
            raw_black,
            code,
        };
        self.acc.cell_changed(q, d, &old, &info);
        // field by field into place, for the same reason
        let cell = &mut self.info[q];
        cell.pat = pat;
        cell.threat = threat;
        cell.raw_black = raw_black;
        cell.code = code;
    }

    /// Both colours' classes, black's raw class byte and both pattern codes, from the line
    /// patterns. A renju double-three candidate counts as forbidden here, so the counts stay
    /// a pure function of the stones; only [`Board::is_forbidden`] runs the exact, recursive
    /// check.
    #[inline]
    fn classify(&self, pat: [[u8; 4]; 2]) -> ([u8; 2], u8, [u16; 2]) {
        let (black, raw_black, code_black) = self.classify_black(pat[0]);
        let (white, code_white) = self.classify_white(pat[1]);
        ([black, white], raw_black, [code_black, code_white])
    }

    /// Black's class, raw class byte and pattern code (see [`Board::classify`]).
    #[inline]
    fn classify_black(&self, pat: [u8; 4]) -> (u8, u8, u16) {
        let (raw_black, code) = self.tables.cell(0, pat);
        let black = if raw_black & NEEDS_FOUL_CHECK != 0 {
            Threat::Forbid as u8
        } else {
            raw_black
        };
        (black, raw_black, code)
    }

    /// White's class and pattern code (see [`Board::classify`]).
    #[inline]
    fn classify_white(&self, pat: [u8; 4]) -> (u8, u16) {
        let (raw_white, code) = self.tables.cell(1, pat);
        (raw_white & !NEEDS_FOUL_CHECK, code)
    }

    /// Black's class on `p` as the move picker should see it: a double-three candidate that
    /// the exact check finds allowed gets its real class back.
    pub fn black_threat_exact(&self, p: Pos) -> Threat {
        let info = &self.info[p.index()];
        if info.raw_black & NEEDS_FOUL_CHECK != 0 && self.foul(p).is_none() {
            Threat::from_u8(info.raw_black & !NEEDS_FOUL_CHECK)
        } else {
            info.threat(Color::Black)
        }
    }

    /// Whether black's class on `p` hides a double-three candidate.
    pub fn needs_foul_check(&self, p: Pos) -> bool {
        self.info[p.index()].raw_black & NEEDS_FOUL_CHECK != 0
    }

    /// Rebuilds keys, patterns, classes and counts from the stones alone.
    fn recompute_all(&mut self) {
        self.counts = [[0; THREAT_COUNT]; 2];
        self.fouls = 0;
        self.acc.clear();
        for q in 0..GRID_CELLS {
            for (d, &off) in DIR_OFFSETS.iter().enumerate() {
                let mut key = 0u32;
                for k in (-5isize..=5).filter(|&k| k != 0) {
                    let v = self.grid.at(q as isize + k * off) as u32;
                    key |= v << (2 * slot(k));
                }
                self.keys[q][d] = key;
            }
        }
        for q in 0..GRID_CELLS {
            if self.grid.cells[q] != EMPTY {
                self.info[q] = CellInfo::default();
                continue;
            }
            let mut info = CellInfo::default();
            for d in 0..4 {
                let [black, white] = self.tables.patterns(self.keys[q][d]);
                info.pat[0][d] = black;
                info.pat[1][d] = white;
            }
            (info.threat, info.raw_black, info.code) = self.classify(info.pat);
            self.info[q] = info;
            self.add_counts(q, &info);
        }
        self.acc.rebuild(&self.grid, &self.keys);
    }

    /// A text diagram: `x` black, `o` white, `.` empty; rows top to bottom.
    pub fn diagram(&self) -> String {
        let mut s = String::new();
        for y in 0..self.height() {
            for x in 0..self.width() {
                let ch = match self.stone(Pos::new(x, y)) {
                    Some(Color::Black) => 'x',
                    Some(Color::White) => 'o',
                    None => '.',
                };
                s.push(ch);
                if x + 1 < self.width() {
                    s.push(' ');
                }
            }
            s.push('\n');
        }
        s
    }

    /// [`Board::from_diagram`] keeping the sums of `acc`. Panics on a malformed diagram:
    /// diagrams are fixtures (see [`diagram::Diagram`]).
    pub fn from_diagram_with(text: &str, rule: Rule, acc: A) -> Board<A> {
        let d = diagram::Diagram::parse(text).unwrap_or_else(|e| panic!("diagram: {e}"));
        Board::from_parsed_diagram(&d, rule, acc)
    }

    /// The board of a parsed diagram (the shipped sums depend on its size, so
    /// [`Board::from_diagram`] reads the diagram before it picks them).
    fn from_parsed_diagram(d: &diagram::Diagram, rule: Rule, acc: A) -> Board<A> {
        let mut b = Board::with_accumulator(d.width, d.height, rule, acc);
        for (p, c) in d.in_order() {
            b.put(p, c);
        }
        b.set_side(d.side_to_move());
        b
    }
}

#[cfg(test)]
mod tests;
