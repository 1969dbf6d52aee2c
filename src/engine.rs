//! The engine API between the search and any front-end: new game, set position, play,
//! think with limits, stop. It knows nothing of text formats.

use crate::board::{Board, Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::eval::Score;
use crate::rules::{Foul, Rule};
use crate::search::time::{self, Clock};
use crate::search::{Iteration, Limits, SearchResult, Searcher};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

/// Memory kept outside the transposition table: pattern tables (2 MiB per rule in use),
/// boards, stacks, the binary itself.
const RESERVED_BYTES: u64 = 24 << 20;
/// Transposition table limit when no memory limit is given.
const DEFAULT_TT_BYTES: usize = 64 << 20;
/// The table never grows past this: larger ones only cost clearing time at our speeds.
const MAX_TT_BYTES: usize = 256 << 20;

/// Why a move or position was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    OffBoard(i64, i64),
    Occupied(Pos),
    Forbidden(Pos, Foul),
    Duplicate(Pos),
    /// The stone counts cannot come from a game with the given side to move.
    Unbalanced {
        own: usize,
        opponent: usize,
    },
    NothingToUndo,
    NotLastMove(Pos),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            MoveError::OffBoard(x, y) => write!(f, "{x},{y} is off the board"),
            MoveError::Occupied(p) => write!(f, "{p:?} is occupied"),
            MoveError::Forbidden(p, foul) => {
                write!(f, "{p:?} is forbidden for black ({})", foul.name())
            }
            MoveError::Duplicate(p) => write!(f, "{p:?} is listed twice"),
            MoveError::Unbalanced { own, opponent } => write!(
                f,
                "too many stones of one colour ({own} own, {opponent} opponent)"
            ),
            MoveError::NothingToUndo => write!(f, "no move to take back"),
            MoveError::NotLastMove(p) => write!(f, "{p:?} is not the last move"),
        }
    }
}

impl std::error::Error for MoveError {}

/// What a stone in a set-up position belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Owner {
    /// The side that will move next (BOARD field 1).
    Own,
    /// The other side (field 2).
    Opponent,
    /// Neither: a blocked cell (field 3, continuous games).
    Blocked,
}

/// The answer to a SWAP2BOARD step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Three stones: black, white, black.
    Opening([Pos; 3]),
    /// We take black.
    Swap,
    /// We stay white and play this move.
    Move(Pos),
}

/// White swaps to black when its searched value is below minus this.
const SWAP_MARGIN: Score = 60;

/// Candidate swap2 openings as (dx, dy) from the centre: black, white, black. All fit a 5x5
/// board.
const SWAP2_OPENINGS: [[(i64, i64); 3]; 6] = [
    [(0, 0), (1, 1), (2, 0)],
    [(0, 0), (0, 1), (2, 2)],
    [(0, 0), (2, 1), (1, -2)],
    [(0, 0), (-1, 2), (2, 1)],
    [(0, 0), (2, 0), (1, 2)],
    [(0, 0), (1, -1), (-2, 2)],
];

/// How a search should be limited.
#[derive(Clone, Copy, Debug)]
pub struct ThinkLimits {
    pub clock: Clock,
    pub max_depth: Option<i32>,
    pub max_nodes: Option<u64>,
}

/// How a front-end stops searches from another thread. Requests are numbered by the front-end
/// (input line numbers): a STOP ends every search begun for an earlier request, also one
/// that had not started yet when the STOP was read; END ends everything.
#[derive(Default, Debug)]
pub struct StopSignal {
    last_stop: AtomicU64,
    end: AtomicBool,
}

impl StopSignal {
    /// A STOP arrived as request number `n`.
    pub fn request_stop(&self, n: u64) {
        self.last_stop.fetch_max(n, Ordering::SeqCst);
    }
    /// END arrived: stop and never start again.
    pub fn request_end(&self) {
        self.end.store(true, Ordering::SeqCst);
    }
    pub fn ended(&self) -> bool {
        self.end.load(Ordering::Relaxed)
    }
    /// Whether a search for request number `n` must stop.
    pub fn stops(&self, n: u64) -> bool {
        self.ended() || self.last_stop.load(Ordering::Relaxed) > n
    }
}

/// The engine: one game position, the search and its tables.
pub struct Engine {
    board: Board,
    searcher: Searcher,
    stop: Arc<StopSignal>,
    /// Number of the request being served, for [`StopSignal`].
    request: u64,
    tt_used: bool,
    /// Moves the search must not play (Yixin-Board's `yxblock`), until unblocked.
    blocked: Vec<Pos>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Engine {
    pub fn new() -> Engine {
        Engine {
            board: Board::new(15, 15, Rule::Freestyle),
            searcher: Searcher::new(DEFAULT_TT_BYTES),
            stop: Arc::new(StopSignal::default()),
            request: 0,
            tt_used: false,
            blocked: Vec::new(),
        }
    }

    /// The handle that stops searches from another thread.
    pub fn stop_handle(&self) -> Arc<StopSignal> {
        Arc::clone(&self.stop)
    }

    /// Sets the number of the request now being served (see [`StopSignal`]).
    pub fn set_request(&mut self, n: u64) {
        self.request = n;
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn rule(&self) -> Rule {
        self.board.rule()
    }

    /// Whether `w`×`h` is a board size we play.
    pub fn size_supported(w: i64, h: i64) -> bool {
        let r = MIN_SIZE as i64..=MAX_SIZE as i64;
        r.contains(&w) && r.contains(&h)
    }

    /// Starts a new game on an empty `w`×`h` board.
    pub fn new_game(&mut self, w: usize, h: usize, rule: Rule) {
        self.board = Board::new(w, h, rule);
    }

    /// Changes the rule, keeping the stones.
    pub fn set_rule(&mut self, rule: Rule) {
        if rule == self.board.rule() {
            return;
        }
        let mut b = Board::new(self.board.width(), self.board.height(), rule);
        for &p in self.board.walls() {
            b.put_wall(p);
        }
        for &(p, c) in self.board.history() {
            if p.is_none() {
                b.pass();
            } else {
                b.put(p, c);
            }
        }
        b.set_side(self.board.side());
        self.board = b;
    }

    /// Sizes the transposition table to keep the whole process under `max_bytes`
    /// (0 = no limit: the default size).
    pub fn set_memory_limit(&mut self, max_bytes: u64) {
        let tt = if max_bytes == 0 {
            DEFAULT_TT_BYTES
        } else {
            (max_bytes.saturating_sub(RESERVED_BYTES) as usize).min(MAX_TT_BYTES)
        };
        self.searcher.set_tt_limit(tt);
    }

    /// The transposition table's size now.
    pub fn tt_bytes(&self) -> usize {
        self.searcher.tt_bytes()
    }

    /// The most the transposition table may grow to.
    pub fn tt_limit(&self) -> usize {
        self.searcher.tt_limit()
    }

    /// Forgets the transposition table and history.
    pub fn clear_hash(&mut self) {
        if self.tt_used {
            self.searcher.clear();
            self.tt_used = false;
        }
    }

    /// Whether the side to move may play (x, y), and why not.
    pub fn check_move(&self, x: i64, y: i64) -> Result<Pos, MoveError> {
        if !self.board.on_board(x, y) {
            return Err(MoveError::OffBoard(x, y));
        }
        let p = Pos::new(x as usize, y as usize);
        if !self.board.is_empty(p) {
            return Err(MoveError::Occupied(p));
        }
        Ok(p)
    }

    /// Plays the side to move on (x, y). Renju fouls are allowed here: the opponent may
    /// play one and the referee decides; use [`Engine::foul`] to check our own.
    pub fn play(&mut self, x: i64, y: i64) -> Result<Pos, MoveError> {
        let p = self.check_move(x, y)?;
        self.board.make(p);
        Ok(p)
    }

    /// The renju foul of black on `p`, if any.
    pub fn foul(&self, p: Pos) -> Option<Foul> {
        self.board.foul(p)
    }

    /// Takes back the last stone, which must stand on (x, y).
    pub fn takeback(&mut self, x: i64, y: i64) -> Result<(), MoveError> {
        let last = self
            .board
            .history()
            .iter()
            .rev()
            .find(|(p, _)| !p.is_none())
            .map(|&(p, _)| p)
            .ok_or(MoveError::NothingToUndo)?;
        if !self.board.on_board(x, y) {
            return Err(MoveError::OffBoard(x, y));
        }
        let p = Pos::new(x as usize, y as usize);
        if p != last {
            return Err(MoveError::NotLastMove(p));
        }
        // drop trailing passes, then the stone
        while self.board.undo().is_some_and(|(q, _)| q.is_none()) {}
        Ok(())
    }

    /// Replaces the position by `stones` (listed in playing order where it matters), with
    /// the side of the [`Owner::Own`] stones to move. The colours follow from the counts:
    /// equal counts make us black, one more opponent stone makes us white. Counts no game
    /// could reach (a puzzle set up by hand) are still played, with a warning: we are black
    /// when we have at least as many stones, else white. On error the old position stays.
    pub fn set_position(&mut self, stones: &[(i64, i64, Owner)]) -> Result<Color, MoveError> {
        let own = stones.iter().filter(|s| s.2 == Owner::Own).count();
        let opponent = stones.iter().filter(|s| s.2 == Owner::Opponent).count();
        let me = if own >= opponent {
            Color::Black
        } else {
            Color::White
        };
        if own != opponent && opponent != own + 1 {
            log::warn!(
                "stone counts no game can reach ({own} own, {opponent} opponent): \
                 playing {me:?} to move"
            );
        }
        let mut b = Board::new(self.board.width(), self.board.height(), self.board.rule());
        // walls first: undoing a stone (TAKEBACK) restores the cell data saved before it,
        // which must already include every wall
        let (walls, placed): (Vec<_>, Vec<_>) = stones.iter().partition(|s| s.2 == Owner::Blocked);
        for &(x, y, owner) in walls.into_iter().chain(placed) {
            let p = free_cell(&b, x, y)?;
            match owner {
                Owner::Own => b.put(p, me),
                Owner::Opponent => b.put(p, me.opponent()),
                Owner::Blocked => b.put_wall(p),
            }
        }
        b.set_side(me);
        self.board = b;
        Ok(me)
    }

    /// Sets up a position from stones that alternate black, white, black… (SWAP2BOARD).
    pub fn set_alternating(&mut self, stones: &[(i64, i64)]) -> Result<(), MoveError> {
        let mut b = Board::new(self.board.width(), self.board.height(), self.board.rule());
        for &(x, y) in stones {
            let p = free_cell(&b, x, y)?;
            b.make(p);
        }
        self.board = b;
        Ok(())
    }

    /// Turns protocol limits into search limits for the current position.
    pub fn limits(&self, t: &ThinkLimits) -> Limits {
        let empties = self.board.cell_count() - self.board.stone_count();
        let budget = time::budget(&t.clock, empties);
        Limits {
            depth: t.max_depth,
            nodes: t.max_nodes,
            soft_ms: Some(budget.soft_ms),
            hard_ms: Some(budget.hard_ms),
        }
    }

    /// Adds cells the search must not play, on this and later positions, until
    /// [`Engine::unblock`] or [`Engine::clear_blocked`]. Nothing changes on error.
    pub fn block(&mut self, cells: &[(i64, i64)]) -> Result<(), MoveError> {
        let ps = self.cells(cells)?;
        for p in ps {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
        Ok(())
    }

    /// Lets the search play these cells again.
    pub fn unblock(&mut self, cells: &[(i64, i64)]) -> Result<(), MoveError> {
        let ps = self.cells(cells)?;
        self.blocked.retain(|p| !ps.contains(p));
        Ok(())
    }

    pub fn clear_blocked(&mut self) {
        self.blocked.clear();
    }

    /// The cells the search must not play, in the order they were blocked.
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    fn cells(&self, cells: &[(i64, i64)]) -> Result<Vec<Pos>, MoveError> {
        cells
            .iter()
            .map(|&(x, y)| {
                if self.board.on_board(x, y) {
                    Ok(Pos::new(x as usize, y as usize))
                } else {
                    Err(MoveError::OffBoard(x, y))
                }
            })
            .collect()
    }

    /// Searches the current position for the side to move; does not play the move.
    pub fn think(
        &mut self,
        limits: &Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.tt_used = true;
        // blocked cells count only while some legal cell is left: a move always comes back
        let b = &self.board;
        let open = b
            .empty_cells()
            .any(|p| b.is_legal(p) && !self.blocked.contains(&p));
        self.searcher.set_excluded(if open {
            self.blocked.clone()
        } else {
            Vec::new()
        });
        let (stop, n) = (Arc::clone(&self.stop), self.request);
        self.searcher
            .think(&self.board, limits, &move || stop.stops(n), on_iteration)
    }

    /// Plays our own move (from [`Engine::think`]).
    pub fn commit(&mut self, p: Pos) {
        self.board.make(p);
    }

    /// Answers a SWAP2BOARD step. The receiver is the side about to move as white: on an
    /// empty board it proposes three stones, after three or five stones it swaps (takes
    /// black) when white's searched value is bad, else plays white's move. The position is
    /// left as the answer makes it.
    pub fn swap2(
        &mut self,
        stones: &[(i64, i64)],
        t: &ThinkLimits,
    ) -> Result<Swap2Answer, MoveError> {
        match stones.len() {
            0 => Ok(self.swap2_opening(t)),
            3 | 5 => {
                self.set_alternating(stones)?;
                let limits = self.limits(t);
                let r = self.think(&limits, &mut |_| {});
                match r.best {
                    Some(p) if r.score > -SWAP_MARGIN => {
                        self.commit(p);
                        Ok(Swap2Answer::Move(p))
                    }
                    _ => Ok(Swap2Answer::Swap),
                }
            }
            n => Err(MoveError::Unbalanced {
                own: n,
                opponent: 0,
            }),
        }
    }

    /// Three stones (black, white, black) near the centre that leave white's searched value
    /// closest to even, from a fixed list tried in order.
    fn swap2_opening(&mut self, t: &ThinkLimits) -> Swap2Answer {
        let (w, h) = (self.board.width() as i64, self.board.height() as i64);
        let (cx, cy) = (w / 2, h / 2);
        let mut share = *t;
        share.clock.turn_ms = (t.clock.turn_ms / (SWAP2_OPENINGS.len() as u64 + 1)).max(1);
        share.clock.left_ms = t.clock.left_ms.map(|l| l / 4);
        let mut best: Option<([Pos; 3], Score)> = None;
        for o in SWAP2_OPENINGS {
            let stones: Vec<(i64, i64)> = o.iter().map(|&(dx, dy)| (cx + dx, cy + dy)).collect();
            if self.set_alternating(&stones).is_err() {
                continue;
            }
            let limits = self.limits(&share);
            let r = self.think(&limits, &mut |_| {});
            let pos = [0, 1, 2].map(|i| Pos::new(stones[i].0 as usize, stones[i].1 as usize));
            if best.is_none_or(|(_, s)| r.score.abs() < s.abs()) {
                best = Some((pos, r.score));
            }
        }
        // the first opening fits every board from 5x5 up, so there is always one
        let (pos, _) = best.unwrap_or(([self.board.center(); 3], 0));
        let stones: Vec<(i64, i64)> = pos.iter().map(|p| (p.x() as i64, p.y() as i64)).collect();
        let _ = self.set_alternating(&stones);
        Swap2Answer::Opening(pos)
    }

    /// Every empty cell where black may not play (renju only), by row then column.
    pub fn forbidden_points(&self) -> Vec<Pos> {
        if !self.board.rule().has_forbidden() {
            return Vec::new();
        }
        let mut pts: Vec<Pos> = self
            .board
            .empty_cells()
            .filter(|&p| self.board.foul(p).is_some())
            .collect();
        pts.sort_by_key(|p| (p.y(), p.x()));
        pts
    }
}

/// The empty cell (x, y) of a position being set up.
fn free_cell(b: &Board, x: i64, y: i64) -> Result<Pos, MoveError> {
    if !b.on_board(x, y) {
        return Err(MoveError::OffBoard(x, y));
    }
    let p = Pos::new(x as usize, y as usize);
    if !b.is_empty(p) {
        return Err(MoveError::Duplicate(p));
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_position_infers_colours() {
        let mut e = Engine::new();
        e.new_game(15, 15, Rule::Freestyle);
        let me = e
            .set_position(&[
                (7, 7, Owner::Opponent),
                (8, 8, Owner::Own),
                (6, 6, Owner::Opponent),
            ])
            .unwrap();
        assert_eq!(me, Color::White);
        assert_eq!(e.board().side(), Color::White);
        assert_eq!(e.board().stone(Pos::new(7, 7)), Some(Color::Black));
        // a set-up puzzle: more stones of ours than any game gives; we still move
        let me = e
            .set_position(&[(1, 1, Owner::Own), (2, 2, Owner::Own)])
            .unwrap();
        assert_eq!(me, Color::Black);
        assert_eq!(e.board().side(), Color::Black);
        let me = e
            .set_position(&[(1, 1, Owner::Opponent), (2, 2, Owner::Opponent)])
            .unwrap();
        assert_eq!(me, Color::White);
        assert_eq!(e.board().stone(Pos::new(2, 2)), Some(Color::Black));
        // a duplicate is an error, and the old position stays
        assert_eq!(
            e.set_position(&[(1, 1, Owner::Own), (1, 1, Owner::Opponent)]),
            Err(MoveError::Duplicate(Pos::new(1, 1)))
        );
    }

    #[test]
    fn takeback_only_the_last_stone() {
        let mut e = Engine::new();
        e.new_game(15, 15, Rule::Freestyle);
        e.play(7, 7).unwrap();
        e.play(8, 8).unwrap();
        assert_eq!(
            e.takeback(7, 7),
            Err(MoveError::NotLastMove(Pos::new(7, 7)))
        );
        e.takeback(8, 8).unwrap();
        assert_eq!(e.board().stone_count(), 1);
        assert_eq!(e.board().side(), Color::White);
    }

    #[test]
    fn stop_counts_by_request_number() {
        let s = StopSignal::default();
        assert!(!s.stops(3));
        s.request_stop(5);
        // a STOP ends searches for earlier requests, never for later ones
        assert!(s.stops(3) && s.stops(4));
        assert!(!s.stops(5) && !s.stops(6));
        s.request_stop(2);
        assert!(s.stops(4), "an older STOP does not undo a newer one");
        s.request_end();
        assert!(s.stops(100) && s.ended());
    }

    #[test]
    fn a_stop_read_before_the_search_still_stops_it() {
        let mut e = Engine::new();
        e.new_game(15, 15, Rule::Freestyle);
        e.play(7, 7).unwrap();
        e.set_request(10);
        e.stop_handle().request_stop(11);
        let limits = Limits {
            hard_ms: Some(60_000),
            soft_ms: Some(60_000),
            ..Limits::default()
        };
        let r = e.think(&limits, &mut |_| {});
        assert!(r.best.is_some());
        assert!(r.nodes < 5_000, "searched {} nodes after STOP", r.nodes);
        // the next request is not stopped
        e.set_request(12);
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let r = e.think(&limits, &mut |_| {});
        assert_eq!(r.depth, 3);
    }

    #[test]
    fn memory_limit_sizes_the_table() {
        let mut e = Engine::new();
        // nothing large before the first search
        assert!(e.tt_bytes() <= 1 << 20);
        e.set_memory_limit(350 << 20);
        assert!(e.tt_bytes() <= 1 << 20);
        assert!(e.tt_limit() as u64 <= (350u64 << 20) - RESERVED_BYTES);
        assert!(e.tt_limit() >= 128 << 20);
        // a search with no time limit grows the table to its limit at once
        e.new_game(15, 15, Rule::Freestyle);
        e.play(7, 7).unwrap();
        let depth_only = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        e.think(&depth_only, &mut |_| {});
        assert!(e.tt_bytes() >= 128 << 20);
        assert!(e.tt_bytes() <= e.tt_limit());
        // a lower limit gives memory back at once
        e.set_memory_limit(40 << 20);
        assert!(e.tt_bytes() <= 16 << 20);
        assert!(e.tt_limit() <= 16 << 20);
    }

    #[test]
    fn the_table_grows_by_what_the_clock_allows() {
        let mut e = Engine::new();
        e.set_memory_limit(350 << 20);
        e.new_game(15, 15, Rule::Freestyle);
        e.play(7, 7).unwrap();
        let short = Limits {
            hard_ms: Some(100),
            soft_ms: Some(1),
            ..Limits::default()
        };
        e.think(&short, &mut |_| {});
        // 5 % of 100 ms at no more than a few GB/s
        assert!(e.tt_bytes() <= 32 << 20, "{} bytes", e.tt_bytes());
        // a depth limit takes the whole table, whatever the clock: the same result on any
        // machine
        let deep = Limits {
            depth: Some(2),
            ..short
        };
        e.think(&deep, &mut |_| {});
        assert!(e.tt_bytes() >= 128 << 20, "{} bytes", e.tt_bytes());
    }
}
