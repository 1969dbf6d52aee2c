//! The searcher: what lives across moves (the transposition table, which grows on the
//! clock, history, the threat solvers' caches) and the entry point of a search.

use super::book::{self, BookLink};
use super::tt::TranspositionTable;
use super::{Iteration, Limits, Params, SearchControl, SearchResult, Worker};
use crate::board::{Board, Pos, GRID_CELLS};
use crate::eval::Evaluator;
use std::time::Instant;

/// A new table's memory is mapped at no more than this share of a move's hard limit, in
/// per cent: the first moves of a game under Gomocup's manager pay for it on their clock.
const TT_GROWTH_SHARE_PERCENT: u64 = 5;
/// Assumed cost of mapping and touching fresh memory until one growth has been timed,
/// bytes per ms (2-3 GB/s on the machines here; 0.3-0.9 GB/s seen under Gomocup's manager).
const TT_INITIAL_MAP_RATE: u64 = 512 << 10;
/// The smallest table, where the growth starts.
const TT_MIN_BYTES: usize = 1 << 20;

/// The most search threads (Lazy SMP).
pub const MAX_THREADS: usize = 64;
/// Memory a search thread takes besides the shared table: its history, continuation
/// history and threat caches (3.4 MiB together), board, stacks and the part of its system
/// stack it touches.
pub const THREAD_BYTES: u64 = 5 << 20;

/// Stack of a helper thread: the recursion is bounded by the ply limit and needs far less;
/// only the pages it touches count.
const HELPER_STACK_BYTES: usize = 16 << 20;

/// What each search thread keeps for itself across moves.
pub(super) struct ThreadTables {
    pub(super) history: Vec<[i32; 2]>,
    pub(super) vcf_cache: Vec<u64>,
    pub(super) vct_cache: Vec<u64>,
    /// Corrections of the static evaluation ([`super::CORRECTION_TABLES`] tables).
    pub(super) correction: Vec<i32>,
    /// Continuation history ([`super::cont`]).
    pub(super) cont: Vec<i16>,
    /// The fail-highs of this thread's last search ([`super::stats`]).
    pub(super) cutoffs: super::stats::CutoffStats,
}

/// What a new search keeps of the last one's history: `keep` per cent of every entry.
fn age_history(history: &mut [[i32; 2]], keep: i32) {
    for h in history.iter_mut().flatten() {
        *h = *h * keep / 100;
    }
}

impl ThreadTables {
    fn new() -> ThreadTables {
        ThreadTables {
            history: vec![[0; 2]; GRID_CELLS],
            vcf_cache: vec![0; 1 << 16],
            vct_cache: vec![0; 1 << 18],
            correction: vec![0; super::CORRECTION_TABLES * super::CORRECTION_SIZE],
            cont: vec![0; super::cont::CONT_ENTRIES],
            cutoffs: Default::default(),
        }
    }

    /// Only what move ordering reads (history and continuation history): the threat caches
    /// and the corrections are empty, so a worker over these may order moves but not search
    /// ([`super::ranked_moves`]). 0.7 MiB where a searching thread's take 3.4.
    pub(super) fn for_ordering() -> ThreadTables {
        ThreadTables {
            history: vec![[0; 2]; GRID_CELLS],
            vcf_cache: Vec::new(),
            vct_cache: Vec::new(),
            correction: Vec::new(),
            cont: vec![0; super::cont::CONT_ENTRIES],
            cutoffs: Default::default(),
        }
    }

    fn clear(&mut self) {
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
        self.vcf_cache.fill(0);
        self.vct_cache.fill(0);
        self.correction.fill(0);
        self.cont.fill(0);
    }
}

/// What the workers of one search share.
pub(super) struct Shared<'a> {
    pub(super) tt: &'a TranspositionTable,
    pub(super) control: &'a SearchControl,
    /// On the main thread of a multi-threaded search: the helpers' control.
    pub(super) helpers: Option<&'a SearchControl>,
    pub(super) excluded: &'a [Pos],
    pub(super) start: Instant,
    /// The values the workers search with (the tuner's, else the rule's).
    pub(super) params: Params,
    /// The position database, when one is in use.
    pub(super) book: Option<&'a BookLink>,
}

/// Search state that lives across moves: the transposition table, shared by the search
/// threads, and each thread's history and caches.
pub struct Searcher {
    tt: TranspositionTable,
    /// The most the table may take; it grows towards this as the clock allows.
    tt_limit: usize,
    /// Measured cost of a fresh table, bytes per ms of the clock.
    map_rate: u64,
    /// One per search thread; the first is the main thread's.
    threads: Vec<ThreadTables>,
    /// Root moves the next searches must not play.
    excluded: Vec<Pos>,
    /// Margins and reduction terms in place of the rule's (a tuner's; none in play).
    params: Option<Params>,
    /// The position database the searches read and write, when one is in use.
    book: Option<BookLink>,
}

/// The move on a board with neither stones nor walls: the legal cell nearest the centre,
/// lowest index first, as every search of it chooses.
fn opening_move<E: Evaluator>(board: &Board<E>, excluded: &[Pos]) -> Option<Pos> {
    if board.stone_count() > 0 || !board.walls().is_empty() {
        return None;
    }
    board
        .empty_cells()
        .filter(|&p| board.is_legal(p) && !excluded.contains(&p))
        .min_by_key(|&p| (board.centre_distance2(p), p))
}

impl Searcher {
    /// The answer a move's search would give, where it is known without one: the opening
    /// move of an empty board. It comes at once, with no table growth and no threads
    /// started; a manager charges the engine's start-up to this move.
    fn known_move<E: Evaluator>(&self, board: &Board<E>, limits: &Limits) -> Option<SearchResult> {
        if limits.multipv > 1 {
            return None;
        }
        let p = opening_move(board, &self.excluded)?;
        Some(SearchResult {
            best: Some(p),
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed_ms: 0,
            pv: vec![p],
            lines: Vec::new(),
        })
    }

    /// A searcher whose table may grow to `tt_bytes`, on one thread. Nothing large is
    /// allocated before the first search: a manager may suspend the engine between START and
    /// the first move, and the process must stay within its memory limit from the start.
    pub fn new(tt_bytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(TT_MIN_BYTES.min(tt_bytes)),
            tt_limit: tt_bytes,
            map_rate: TT_INITIAL_MAP_RATE,
            threads: vec![ThreadTables::new()],
            excluded: Vec::new(),
            params: None,
            book: None,
        }
    }

    /// Searches read (and, where the link says so, write) this position database.
    pub fn set_book(&mut self, book: Option<BookLink>) {
        self.book = book;
    }

    pub fn book(&self) -> Option<&BookLink> {
        self.book.as_ref()
    }

    /// Searches with `params` in place of the rule's own values (`None`: the rule's).
    pub fn set_params(&mut self, params: Option<Params>) {
        self.params = params;
    }

    /// The values a search of `board` uses: those set, else its rule's and size's own.
    fn params_for<E: Evaluator>(&self, board: &Board<E>) -> Params {
        self.params
            .unwrap_or_else(|| Params::for_board(board.rule(), board.width(), board.height()))
    }

    /// Searches with `n` threads (1 to [`MAX_THREADS`]) from now on.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, MAX_THREADS);
        self.threads.truncate(n);
        while self.threads.len() < n {
            self.threads.push(ThreadTables::new());
        }
    }

    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    pub fn tt_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Root moves the following searches must not play (none by default).
    pub fn set_excluded(&mut self, moves: Vec<Pos>) {
        self.excluded = moves;
    }

    /// The fail-highs of the last search, over all its threads.
    pub fn cutoff_stats(&self) -> super::stats::CutoffStats {
        let mut all = super::stats::CutoffStats::default();
        for t in &self.threads {
            all.add(&t.cutoffs);
        }
        all
    }

    /// The most the table may grow to.
    pub fn tt_limit(&self) -> usize {
        self.tt_limit
    }

    /// Sets the most the table may take; a larger table is given back at once.
    pub fn set_tt_limit(&mut self, bytes: usize) {
        self.tt_limit = bytes;
        if self.tt.size_bytes() > bytes {
            self.rebuild_tt(bytes);
        }
    }

    /// A new, empty table of at most `bytes`. The old one goes first: both together may not
    /// fit in the memory limit.
    fn rebuild_tt(&mut self, bytes: usize) {
        self.tt = TranspositionTable::new(0);
        self.tt = TranspositionTable::new(bytes);
    }

    /// Builds the table at its full size now, so a timed search does not pay for it (the
    /// benchmark's timings).
    pub fn reserve_tt(&mut self) {
        self.grow_tt(&Limits::default());
    }

    /// Grows the table towards its limit by as much as fits in a small share of this
    /// move's hard limit (all of it when the search has no time limit). The contents are
    /// lost, which costs little: it happens in the first few moves of a game.
    fn grow_tt(&mut self, limits: &Limits) {
        let current = self.tt.size_bytes();
        // A depth-limited search (analysis, tests) takes the whole table at once, so its
        // result does not depend on how fast this machine maps memory.
        let affordable = match (limits.hard_ms, limits.depth) {
            (Some(h), None) => {
                (h * TT_GROWTH_SHARE_PERCENT / 100).saturating_mul(self.map_rate) as usize
            }
            _ => usize::MAX,
        };
        // a node-limited search stores at most one entry a node
        let useful = limits
            .nodes
            .map_or(usize::MAX, |n| (n as usize).saturating_mul(64));
        let target = self.tt_limit.min(affordable).min(useful);
        if target < 2 * current {
            return;
        }
        let t0 = Instant::now();
        self.rebuild_tt(target);
        let us = t0.elapsed().as_micros().max(1) as u64;
        let bytes = self.tt.size_bytes() as u64;
        // time only tables large enough to time; a slow host slows the next growth
        if bytes >= 2 << 20 {
            self.map_rate = (bytes * 1000 / us).max(TT_INITIAL_MAP_RATE / 4);
        }
        log::debug!("table grown to {} MiB in {} us", bytes >> 20, us);
    }

    /// Forgets everything learnt: for a new game, and for reproducible benchmarks.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.threads.iter_mut().for_each(ThreadTables::clear);
    }

    /// Runs `f` on a one-thread worker from `board` (the search's own tests).
    #[cfg(test)]
    pub(super) fn with_worker<T, E: Evaluator>(
        &mut self,
        board: &Board<E>,
        limits: &Limits,
        control: &SearchControl,
        f: impl FnOnce(&mut Worker<E>) -> T,
    ) -> T {
        let mut w = self.worker(board, limits, control);
        f(&mut w)
    }

    /// A one-thread worker over this searcher's tables for `board`.
    #[cfg(test)]
    pub(super) fn worker<'a, E: Evaluator>(
        &'a mut self,
        board: &Board<E>,
        limits: &Limits,
        control: &'a SearchControl,
    ) -> Worker<'a, E> {
        let shared = Shared {
            tt: &self.tt,
            control,
            helpers: None,
            excluded: &self.excluded,
            start: Instant::now(),
            params: self.params_for(board),
            book: self.book.as_ref(),
        };
        Worker::new(board, limits, &mut self.threads[0], shared, 0)
    }

    /// Searches `board` for the side to move, on every thread, until a limit or `control`
    /// stops it. The main thread decides the move and reports; the helpers (Lazy SMP) only
    /// fill the shared table from the same root, at staggered depths.
    pub fn think<E: Evaluator>(
        &mut self,
        board: &Board<E>,
        limits: &Limits,
        control: &SearchControl,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.think_and_tell(board, limits, control, on_iteration, &mut |_| {})
    }

    /// [`Searcher::think`], telling `on_result` the answer as soon as the main thread has
    /// it: before the helper threads are joined, which on a busy machine can wait for a
    /// helper to be scheduled again.
    pub fn think_and_tell<E: Evaluator>(
        &mut self,
        board: &Board<E>,
        limits: &Limits,
        control: &SearchControl,
        on_iteration: &mut dyn FnMut(&Iteration),
        on_result: &mut dyn FnMut(&SearchResult),
    ) -> SearchResult {
        // the clock runs from here: growing the table is paid from the move's time
        let start = Instant::now();
        let from_book = self.book.as_ref().filter(|_| limits.multipv <= 1);
        if let Some(r) = from_book.and_then(|l| book::book_move(l, board, &self.excluded)) {
            on_result(&r);
            return r;
        }
        if let Some(r) = self.known_move(board, limits) {
            on_result(&r);
            return r;
        }
        self.grow_tt(limits);
        self.tt.new_search();
        let params = self.params_for(board);
        for t in &mut self.threads {
            age_history(&mut t.history, params.hist_keep);
            t.cutoffs = Default::default();
        }
        let (main, helpers) = self.threads.split_first_mut().expect("one thread");
        let shared = |control, helpers| Shared {
            tt: &self.tt,
            control,
            helpers,
            excluded: &self.excluded,
            start,
            params,
            book: self.book.as_ref(),
        };
        if helpers.is_empty() {
            let mut w = Worker::new(board, limits, main, shared(control, None), 0);
            let r = w.root(on_iteration, &mut |_| {});
            on_result(&r);
            if let Some(l) = &self.book {
                book::record(l, board, &r);
            }
            return r;
        }
        let inner = SearchControl::default();
        let helper_limits = Limits {
            depth: limits.depth,
            ..Limits::default()
        };
        let r = std::thread::scope(|scope| {
            let mut idle = Some(helpers);
            // called once the root has chosen its moves, before iterative deepening
            let mut start_helpers = |w: &Worker<E>| {
                for (i, tables) in idle.take().into_iter().flatten().enumerate() {
                    let (board, root_moves) = (w.board.clone(), w.root_moves.clone());
                    let sh = shared(&inner, None);
                    let helper = move || {
                        let mut h = Worker::new(&board, &helper_limits, tables, sh, i + 1);
                        h.root_moves = root_moves;
                        h.iterate_helper();
                    };
                    // the stack of the engine's own search thread; without a helper the
                    // main thread simply searches alone
                    let spawned = std::thread::Builder::new()
                        .name(format!("rensa-helper-{}", i + 1))
                        .stack_size(HELPER_STACK_BYTES)
                        .spawn_scoped(scope, helper);
                    if let Err(e) = spawned {
                        log::warn!("helper thread {} not started: {e}", i + 1);
                    }
                }
            };
            let mut w = Worker::new(board, limits, main, shared(control, Some(&inner)), 0);
            let r = w.root(on_iteration, &mut start_helpers);
            inner.stop();
            on_result(&r);
            r
        });
        if let Some(l) = &self.book {
            book::record(l, board, &r);
        }
        r
    }
}

#[cfg(test)]
mod tests {
    use super::{age_history, Searcher};
    use crate::board::Board;
    use crate::rules::Rule;
    use crate::search::Params;

    #[test]
    fn a_search_takes_its_boards_size_unless_told_otherwise() {
        let mut s = Searcher::new(1 << 20);
        let large = Board::new(20, 20, Rule::Freestyle);
        let small = Board::new(15, 15, Rule::Freestyle);
        assert_eq!(s.params_for(&large).defend_ext_moves, 2);
        assert_eq!(s.params_for(&small).defend_ext_moves, 4);
        // values set by a tuner apply to every size
        let mut set = Params::for_rule(Rule::Freestyle);
        set.defend_ext_moves = 5;
        s.set_params(Some(set));
        assert_eq!(s.params_for(&large), set);
        assert_eq!(s.params_for(&small), set);
    }

    #[test]
    fn a_new_search_keeps_its_share_of_the_history() {
        let mut h = vec![[16_384, -16_384], [7, -7], [0, 100]];
        age_history(&mut h, 75);
        assert_eq!(h, [[12_288, -12_288], [5, -5], [0, 75]]);
        // a quarter, as the shift by two it replaced (rounding towards zero both ways)
        let mut q = vec![[16_384, -16_383], [7, -7]];
        age_history(&mut q, 25);
        assert_eq!(q, [[16_384 / 4, -16_383 / 4], [7 / 4, -7 / 4]]);
        age_history(&mut q, 0);
        assert_eq!(q, [[0, 0], [0, 0]]);
    }
}
