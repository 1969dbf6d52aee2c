//! The engine API between the search and any front-end: new game, set position, play,
//! think with limits, stop. It knows nothing of text formats. Searches run on the engine's
//! own thread ([`Engine::start`]) and report through a callback, so a front-end stays free
//! to read its input, stop a search or answer a ponder hit; [`Engine::think`] is the same
//! search waited for.

pub mod book;
mod job;
pub mod memory;
mod soosorv;
mod swap2;
mod task;
mod work;

use crate::board::{Board, Color, Pos, MAX_SIZE, MIN_SIZE};
use crate::rules::{Foul, Rule};
use crate::search::{Params, SearchControl, Searcher, MAX_THREADS};
use memory::{Plan, DEFAULT_TT_BYTES};
pub use soosorv::{SoosorvAnswer, SoosorvStep, MAX_FIFTHS};
use std::fmt;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;
pub use swap2::Swap2Answer;
pub use task::{Answer, Report, Task, ThinkLimits};
use work::Work;

// What front-ends need from the layers below, so they speak to the engine only.
pub use crate::eval::{score_text, Score, WIN_MIN};
pub use crate::search::time::Clock;
pub use crate::search::{Iteration, SearchResult};

/// Stack of the engine's search thread: the recursion is bounded by the ply limit and
/// needs far less; only the pages it touches count.
const SEARCH_STACK_BYTES: usize = 16 << 20;

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

/// A search running on the engine's thread.
struct Job {
    control: Arc<SearchControl>,
    /// The searcher comes back, with the position the job leaves (Swap2, balance);
    /// nothing when the job panicked.
    handle: JoinHandle<Option<(Searcher, Option<Board>)>>,
    started: Instant,
    pondering: bool,
}

/// The engine: one game position, the search and its tables.
pub struct Engine {
    board: Board,
    /// Away (`None`) while a job has it.
    searcher: Option<Searcher>,
    job: Option<Job>,
    tt_used: bool,
    /// Moves the search must not play (Yixin-Board's `yxblock`), until unblocked.
    blocked: Vec<Pos>,
    /// `max_memory` as last given (0 = none).
    memory_limit: u64,
    /// The table size asked for (Yixin-Board's `hash_size`), within the memory limit.
    hash_bytes: Option<u64>,
    /// Threads asked for; [`Engine::plan`] says how many run.
    threads: usize,
    /// What the memory limit, the threads asked for and the CPUs allow.
    plan: Plan,
    /// A tuner's search margins in place of the rule's (none in play).
    params: Option<Params>,
    /// The position database, when one is open (see [`book`]).
    book: Option<Arc<std::sync::RwLock<crate::database::Database>>>,
    /// `INFO database_readonly`: the database is only read.
    book_readonly: bool,
    /// The file of the database opened last.
    book_path: Option<std::path::PathBuf>,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop();
        self.wait();
        // the database's changes are kept, as Rapfi and Yixin keep them, on END too
        if let Err(e) = self.save_database() {
            log::error!("database not saved: {e}");
        }
    }
}

impl Engine {
    pub fn new() -> Engine {
        crate::platform::tune_allocator();
        Engine {
            board: Board::new(15, 15, Rule::Freestyle),
            searcher: Some(Searcher::new(DEFAULT_TT_BYTES)),
            job: None,
            tt_used: false,
            blocked: Vec::new(),
            memory_limit: 0,
            hash_bytes: None,
            threads: 1,
            plan: memory::plan(0, None, 1, 1),
            params: None,
            book: None,
            book_readonly: false,
            book_path: None,
        }
    }

    /// The searcher, once any job has handed it back.
    fn searcher(&mut self) -> &mut Searcher {
        self.wait();
        let book = self.book_link();
        self.searcher.get_or_insert_with(|| {
            // only after a panicked job: fresh tables, the same settings
            let mut s = Searcher::new(self.plan.tt_bytes);
            s.set_threads(self.plan.threads);
            s.set_params(self.params);
            s.set_book(book);
            s
        })
    }

    /// The searcher, moved out for a search.
    fn take_searcher(&mut self) -> Searcher {
        self.searcher();
        self.searcher.take().expect("the searcher is back")
    }

    /// Whether a job is running (it may have just finished and not been waited for).
    pub fn busy(&self) -> bool {
        self.job.as_ref().is_some_and(|j| !j.handle.is_finished())
    }

    /// Whether a job was started and not yet waited for.
    pub fn has_job(&self) -> bool {
        self.job.is_some()
    }

    /// Whether the job is a ponder search that no [`Engine::ponder_hit`] has turned into a
    /// move's search yet.
    pub fn pondering(&self) -> bool {
        self.job.as_ref().is_some_and(|j| j.pondering)
    }

    /// Asks the running job to end now; it still reports its answer.
    pub fn stop(&self) {
        if let Some(j) = &self.job {
            j.control.stop();
        }
    }

    /// Waits for the job to end and takes back the searcher (and the position a Swap2 or
    /// balance job leaves).
    pub fn wait(&mut self) {
        let Some(job) = self.job.take() else {
            return;
        };
        match job.handle.join() {
            Ok(Some((searcher, board))) => {
                self.searcher = Some(searcher);
                if let Some(b) = board {
                    self.board = b;
                }
            }
            // reported as Report::Failed; the searcher is rebuilt on demand
            _ => log::error!("the search thread failed; tables reset"),
        }
    }

    /// Starts `task` on the engine's thread (after any job still running ends); `report`
    /// hears its iterations and its answer, from that thread.
    pub fn start(&mut self, task: Task, mut report: impl FnMut(Report) + Send + 'static) {
        self.wait();
        self.tt_used = true;
        let control = Arc::new(SearchControl::default());
        let mut work = Work {
            board: self.board.clone(),
            searcher: self.take_searcher(),
            blocked: self.blocked.clone(),
            control: Arc::clone(&control),
        };
        let pondering = matches!(task, Task::Ponder { .. });
        let changes_board = matches!(task, Task::Swap2 { .. } | Task::Balance { .. });
        let body = move || {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                work.run(&task, &mut report)
            }));
            match run {
                Ok(answer) => {
                    let board = changes_board.then(|| work.board.clone());
                    // the answer is heard first (a move's search told it already); whoever
                    // hears it joins this thread to get the searcher back
                    if let Some(a) = answer {
                        report(Report::Done(a));
                    }
                    Some((work.searcher, board))
                }
                Err(e) => {
                    let why = e
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| e.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "panic".into());
                    report(Report::Failed(why));
                    None
                }
            }
        };
        let handle = std::thread::Builder::new()
            .name("rensa-search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(body)
            .expect("spawn the search thread");
        self.job = Some(Job {
            control,
            handle,
            started: Instant::now(),
            pondering,
        });
    }

    /// The opponent played the move a ponder search expected (already played on the board
    /// with [`Engine::play`]): the search goes on as this move's search with the limits of
    /// `t`, counting the time it has pondered; when that is already more than the move
    /// would get, it answers at once.
    pub fn ponder_hit(&mut self, t: &ThinkLimits) {
        let limits = task::limits_for(&self.board, t);
        let Some(job) = self.job.as_mut().filter(|j| j.pondering) else {
            return;
        };
        job.pondering = false;
        let pondered = job.started.elapsed().as_millis() as u64;
        let soft = limits.soft_ms.unwrap_or(u64::MAX);
        if pondered >= soft {
            job.control.stop();
        } else {
            // the turn's hard limit runs from now; depth and nodes as for any move
            job.control.set_limits(&crate::search::Limits {
                hard_ms: limits.hard_ms.map(|h| pondered.saturating_add(h)),
                ..limits
            });
        }
    }

    /// Asks for `threads` search threads from the next search: as many run as the CPUs this
    /// process may use and the memory limit allow (see [`memory::plan`]).
    pub fn set_threads(&mut self, threads: usize) -> Plan {
        self.threads = threads.clamp(1, MAX_THREADS);
        self.apply_plan()
    }

    /// The threads asked for.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// What runs: threads, the table's limit, and why fewer threads run than were asked for.
    pub fn plan(&self) -> Plan {
        self.plan
    }

    /// Sizes the threads and the table to the memory limit. What shrinks is given back to
    /// the system before anything grows, so the process never holds both.
    fn apply_plan(&mut self) -> Plan {
        let cpus = Engine::max_threads();
        let limit = self.search_memory_limit();
        let plan = memory::plan(limit, self.hash_bytes, self.threads, cpus);
        let shrinks = plan.threads < self.plan.threads || plan.tt_bytes < self.plan.tt_bytes;
        self.plan = plan;
        let searcher = self.searcher();
        searcher.set_tt_limit(plan.tt_bytes);
        searcher.set_threads(plan.threads);
        if shrinks {
            crate::platform::release_free_memory();
        }
        plan
    }

    /// Searches with `params` in place of the rule's own margins (`None`: the rule's), for
    /// tuning; the protocol never sets them.
    pub fn set_search_params(&mut self, params: Option<Params>) {
        self.params = params;
        self.searcher().set_params(params);
    }

    /// The most search threads worth asking for here: one per CPU this process may run on
    /// (its affinity mask: Gomocup pins each engine to one).
    pub fn max_threads() -> usize {
        crate::platform::cpus().min(MAX_THREADS)
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

    /// Keeps the whole process under `max_bytes` (0 = no limit: the default table): the
    /// threads that fit, and the table (see [`memory::plan`]).
    pub fn set_memory_limit(&mut self, max_bytes: u64) -> Plan {
        self.memory_limit = max_bytes;
        self.limit_book();
        self.apply_plan()
    }

    /// Yixin-Board's `hash_size`: a table of at most `kib` KiB (0 = the default), within
    /// the memory limit.
    pub fn set_hash_size(&mut self, kib: u64) -> Plan {
        self.hash_bytes = (kib > 0).then(|| kib.saturating_mul(1 << 10));
        self.apply_plan()
    }

    /// The transposition table's size now.
    pub fn tt_bytes(&mut self) -> usize {
        self.searcher().tt_bytes()
    }

    /// The last search's fail-highs by depth left ([`crate::search::stats`]).
    pub fn cutoff_stats(&mut self) -> crate::search::stats::CutoffStats {
        self.searcher().cutoff_stats()
    }

    /// The most the transposition table may grow to.
    pub fn tt_limit(&mut self) -> usize {
        self.searcher().tt_limit()
    }

    /// Forgets the transposition table and history.
    pub fn clear_hash(&mut self) {
        if self.tt_used {
            self.searcher().clear();
            self.tt_used = false;
        }
    }

    /// The cell (x, y) of the current board: protocol and command-line numbers become
    /// cells here, and only here.
    pub fn cell(&self, x: i64, y: i64) -> Result<Pos, MoveError> {
        match Pos::at(x, y) {
            Some(p) if self.board.on_board(x, y) => Ok(p),
            _ => Err(MoveError::OffBoard(x, y)),
        }
    }

    /// Whether the side to move may play `p` (a renju foul aside: see [`Engine::play_own`]).
    pub fn check_move(&self, p: Pos) -> Result<(), MoveError> {
        free_cell(&self.board, p).map_err(|e| match e {
            MoveError::Duplicate(p) => MoveError::Occupied(p),
            e => e,
        })
    }

    /// Plays the side to move on `p`. Renju fouls are allowed here: the opponent may play
    /// one and the referee decides; [`Engine::play_own`] refuses them.
    pub fn play(&mut self, p: Pos) -> Result<(), MoveError> {
        self.check_move(p)?;
        self.board.make(p);
        Ok(())
    }

    /// Plays the side to move on `p` as our own move (the protocol's PLAY): black's renju
    /// fouls are refused.
    pub fn play_own(&mut self, p: Pos) -> Result<(), MoveError> {
        self.check_move(p)?;
        if self.board.side() == Color::Black {
            if let Some(foul) = self.foul(p) {
                return Err(MoveError::Forbidden(p, foul));
            }
        }
        self.board.make(p);
        Ok(())
    }

    /// The renju foul of black on `p`, if any.
    pub fn foul(&self, p: Pos) -> Option<Foul> {
        self.board.foul(p)
    }

    /// Takes back the last stone, which must stand on `p`.
    pub fn takeback(&mut self, p: Pos) -> Result<(), MoveError> {
        let last = self
            .board
            .history()
            .iter()
            .rev()
            .find(|(p, _)| !p.is_none())
            .map(|&(p, _)| p)
            .ok_or(MoveError::NothingToUndo)?;
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
    pub fn set_position(&mut self, stones: &[(Pos, Owner)]) -> Result<Color, MoveError> {
        let own = stones.iter().filter(|s| s.1 == Owner::Own).count();
        let opponent = stones.iter().filter(|s| s.1 == Owner::Opponent).count();
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
        let (walls, placed): (Vec<_>, Vec<_>) = stones.iter().partition(|s| s.1 == Owner::Blocked);
        for &(p, owner) in walls.into_iter().chain(placed) {
            free_cell(&b, p)?;
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
    pub fn set_alternating(&mut self, stones: &[Pos]) -> Result<(), MoveError> {
        let empty = Board::new(self.board.width(), self.board.height(), self.board.rule());
        self.board = alternating(&empty, stones)?;
        Ok(())
    }

    /// Adds cells the search must not play, on this and later positions, until
    /// [`Engine::unblock`] or [`Engine::clear_blocked`]. Nothing changes on error.
    pub fn block(&mut self, cells: &[Pos]) -> Result<(), MoveError> {
        self.on_board(cells)?;
        for &p in cells {
            if !self.blocked.contains(&p) {
                self.blocked.push(p);
            }
        }
        Ok(())
    }

    /// Lets the search play these cells again.
    pub fn unblock(&mut self, cells: &[Pos]) -> Result<(), MoveError> {
        self.on_board(cells)?;
        self.blocked.retain(|p| !cells.contains(p));
        Ok(())
    }

    pub fn clear_blocked(&mut self) {
        self.blocked.clear();
    }

    /// The cells the search must not play, in the order they were blocked.
    pub fn blocked(&self) -> &[Pos] {
        &self.blocked
    }

    /// Whether every cell lies on the board.
    fn on_board(&self, cells: &[Pos]) -> Result<(), MoveError> {
        match cells.iter().find(|&&p| !self.board.contains(p)) {
            Some(p) => Err(MoveError::OffBoard(p.x() as i64, p.y() as i64)),
            None => Ok(()),
        }
    }

    /// Searches the current position for the side to move with the limits of `t`, on this
    /// thread; does not play the move.
    pub fn think(
        &mut self,
        t: &ThinkLimits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let limits = task::limits_for(&self.board, t);
        self.think_here(&limits, on_iteration)
    }

    /// A search on this thread.
    fn think_here(
        &mut self,
        limits: &crate::search::Limits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.tt_used = true;
        let mut work = Work {
            board: self.board.clone(),
            searcher: self.take_searcher(),
            blocked: self.blocked.clone(),
            control: Arc::new(SearchControl::default()),
        };
        let r = work.think(limits, &[], on_iteration);
        self.searcher = Some(work.searcher);
        r
    }

    /// [`Engine::think`] with only the depth and node limits of `t`, no clock (benchmarks,
    /// analysis to a fixed depth).
    pub fn think_unlimited(
        &mut self,
        t: &ThinkLimits,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        let limits = crate::search::Limits {
            depth: t.max_depth,
            nodes: t.max_nodes,
            ..Default::default()
        };
        self.think_here(&limits, on_iteration)
    }

    /// A search of the current position for `ms` milliseconds or `nodes` nodes, whichever
    /// comes first, with no game clock to budget (game analysis): the whole time is the
    /// move's (the root's threat probes take their shares of it, as in a game), a forced
    /// reply searches a fifth of it, and a proven position answers at once. On this thread;
    /// the tables stay for the next position.
    pub fn analyse(
        &mut self,
        ms: Option<u64>,
        nodes: Option<u64>,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.think_here(&analysis_limits(ms, nodes, 0), on_iteration)
    }

    /// [`Engine::analyse`] with the `lines` best moves each searched to the full window
    /// (multi-PV), for bookmaking: each line's first move is written to the database.
    pub fn analyse_lines(
        &mut self,
        ms: Option<u64>,
        nodes: Option<u64>,
        lines: usize,
    ) -> SearchResult {
        self.think_here(&analysis_limits(ms, nodes, lines), &mut |_| {})
    }

    /// Sets the transposition table's limit to exactly `bytes`, whatever the memory limit
    /// (benchmarks: the same table on every machine).
    pub fn set_table_bytes(&mut self, bytes: usize) {
        self.searcher().set_tt_limit(bytes);
    }

    /// Builds the table at its full size now, off any clock.
    pub fn reserve_table(&mut self) {
        self.searcher().reserve_tt();
    }

    /// The cell to play when the side to move has no legal one but the board is not full:
    /// renju black with only forbidden cells left. The foul loses by the rules, where no
    /// answer at all would lose on time. The lowest cell index, for determinism.
    pub fn forced_foul(&self) -> Option<Pos> {
        self.board.empty_cells().next()
    }

    /// Plays our own move (from [`Engine::think`]).
    pub fn commit(&mut self, p: Pos) {
        self.board.make(p);
    }

    /// Sets up the stones of Soosorv step `step` (1 to 6), alternating from black (for step
    /// 6 the four opening stones; the rest are black's offered fifth moves), and says what
    /// the step asks for. `n` is the number of fifth moves of steps 4 and 5.
    pub fn check_soosorv(
        &mut self,
        step: u8,
        n: usize,
        stones: &[Pos],
    ) -> Result<SoosorvStep, String> {
        let want = match step {
            1 => 0,
            2 | 3 => 3,
            4..=6 => 4,
            _ => return Err(format!("no Soosorv step {step}")),
        };
        if (step == 6 && stones.len() <= want) || (step != 6 && stones.len() != want) {
            let more = if step == 6 { "more than " } else { "" };
            return Err(format!(
                "Soosorv step {step} needs {more}{want} stones, got {}",
                stones.len()
            ));
        }
        if matches!(step, 4 | 5) && !(1..=MAX_FIFTHS).contains(&n) {
            return Err(format!(
                "Soosorv asks for 1 to {MAX_FIFTHS} fifth moves, got {n}"
            ));
        }
        self.set_alternating(&stones[..want])
            .map_err(|e| e.to_string())?;
        Ok(match step {
            1 => SoosorvStep::Opening,
            2 => SoosorvStep::SwapFirst,
            3 => SoosorvStep::Fourth,
            4 => SoosorvStep::SwapSecond(n),
            5 => SoosorvStep::Offer(n),
            _ => {
                let mut options = Vec::new();
                for &p in &stones[want..] {
                    free_cell(&self.board, p).map_err(|e| e.to_string())?;
                    if let Some(foul) = self.board.foul(p) {
                        return Err(MoveError::Forbidden(p, foul).to_string());
                    }
                    if options.contains(&p) {
                        return Err(MoveError::Duplicate(p).to_string());
                    }
                    options.push(p);
                }
                SoosorvStep::Choose(options)
            }
        })
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

/// An analysis search's limits: the time (soft and hard alike) or nodes, `lines` lines.
fn analysis_limits(ms: Option<u64>, nodes: Option<u64>, lines: usize) -> crate::search::Limits {
    crate::search::Limits {
        depth: None,
        nodes,
        soft_ms: ms,
        hard_ms: ms,
        multipv: lines,
        spare_time_carries: true,
    }
}

/// `empty` with `stones` played on it alternately, black first.
pub(super) fn alternating(empty: &Board, stones: &[Pos]) -> Result<Board, MoveError> {
    let mut b = empty.clone();
    for &p in stones {
        free_cell(&b, p)?;
        b.make(p);
    }
    Ok(b)
}

/// Whether `p` is an empty cell of `b` (a position being set up: a stone there already is
/// listed twice).
fn free_cell(b: &Board, p: Pos) -> Result<(), MoveError> {
    if !b.contains(p) {
        return Err(MoveError::OffBoard(p.x() as i64, p.y() as i64));
    }
    if !b.is_empty(p) {
        return Err(MoveError::Duplicate(p));
    }
    Ok(())
}

#[cfg(test)]
mod tests;
