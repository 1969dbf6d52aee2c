//! Iterative-deepening principal-variation alpha-beta search with threat-based move
//! ordering, a transposition table, a narrow threat quiescence below the horizon, and VCF/VCT
//! solvers at the root. `searcher` holds what lives across moves, `root` the iterative
//! deepening, `node` the node search, `quiesce` the horizon.

pub mod book;
mod cont;
mod movepick;
mod node;
mod ordering;
mod params;
mod quiesce;
mod root;
mod searcher;
mod singular;
pub mod stats;
pub mod time;
pub mod tt;
mod vcf;
mod vct;

use crate::board::{Board, Classical, Color, Pos, DIR_OFFSETS, GRID_CELLS};
use crate::eval::{self, is_mate_score, mate_in, mated_in, Evaluator, Score};
use crate::pattern::Threat;
use crate::rules::Rule;
use ordering::{Focus, Scored};
pub use params::Params;
pub use searcher::{Searcher, MAX_THREADS, THREAD_BYTES};
use searcher::{Shared, ThreadTables};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;
use tt::TranspositionTable;

pub const MAX_PLY: usize = 128;
const MAX_DEPTH: i32 = 100;

/// History scores stay within +/- this (a bonus shrinks as the score nears it: "gravity").
const HISTORY_MAX: i32 = 16_384;
/// A history score counts this many times less than the threat scores in move ordering.
const HISTORY_ORDER_DIV: i32 = 200;

/// Plies near the root with a history of their own ([`Params::low_ply`]).
const LOW_PLY: usize = 4;
/// Moves searched and failed before a cut-off get at most this many maluses.
const MAX_MALUS_MOVES: usize = 32;

/// What the threat counts alone say of a node ([`Worker::static_verdict`]).
enum Verdict {
    /// Won or lost, by this score.
    Decided(Score),
    /// The one cell that blocks the opponent's five.
    Forced(Pos),
    Open,
}

/// What a node is expected to be (Stockfish's node types): on the principal variation, one
/// expected to fail high (a cut node), or one expected to fail low (an all node). Later
/// moves are reduced more at cut nodes; only PV nodes search with an open window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NodeKind {
    Pv,
    Cut,
    All,
}

impl NodeKind {
    fn is_pv(self) -> bool {
        self == NodeKind::Pv
    }

    fn is_cut(self) -> bool {
        self == NodeKind::Cut
    }

    /// A node's first child: the PV goes on, a cut node's best reply is an all node and the
    /// reverse.
    fn first_child(self) -> NodeKind {
        match self {
            NodeKind::Pv => NodeKind::Pv,
            NodeKind::Cut => NodeKind::All,
            NodeKind::All => NodeKind::Cut,
        }
    }

    /// A later child searched with a null window to full depth (after a reduced search beat
    /// alpha), and a pass: an all node under a cut node, else a cut node.
    fn later_child(self) -> NodeKind {
        match self {
            NodeKind::Cut => NodeKind::All,
            _ => NodeKind::Cut,
        }
    }
}

/// Search depth in fixed point, [`ONE_PLY`] units a ply, so that reductions and extensions
/// can be fractions of a ply. (Iterations, the table's depths and what the search reports
/// stay in whole plies.)
type Depth = i32;
const ONE_PLY: Depth = 16;

/// Moves searched at a node before move-count pruning: base + depth^exp (in plies; 3 and
/// 1.32 shipped), halved when the side to move is not improving.
fn move_count_limit(p: &Params, depth: Depth, improving: bool) -> usize {
    let exp = f64::from(p.move_count_exp) / 100.0;
    let n = f64::from(p.move_count_base) + (depth.max(0) as f64 / ONE_PLY as f64).powf(exp);
    (if improving { n } else { n / 2.0 }) as usize
}

/// Depths, in [`Depth`] units, that [`MoveCounts`] keeps; deeper nodes compute theirs.
const MOVE_COUNT_DEPTHS: usize = 64 * ONE_PLY as usize;

/// [`move_count_limit`] by depth and `improving`, computed once a search: `powf` at every
/// node was half a per cent of the time.
struct MoveCounts {
    params: Params,
    table: Box<[[u16; 2]]>,
}

impl MoveCounts {
    fn new(params: &Params) -> MoveCounts {
        let table = (0..MOVE_COUNT_DEPTHS as Depth)
            .map(|d| {
                [false, true]
                    .map(|imp| move_count_limit(params, d, imp).min(u16::MAX as usize) as u16)
            })
            .collect();
        MoveCounts {
            params: *params,
            table,
        }
    }

    #[inline]
    fn get(&self, depth: Depth, improving: bool) -> usize {
        match self.table.get(depth.max(0) as usize) {
            Some(row) if row[usize::from(improving)] < u16::MAX => {
                usize::from(row[usize::from(improving)])
            }
            _ => move_count_limit(&self.params, depth, improving),
        }
    }
}

/// The history bonus of a cut-off at `depth`.
fn history_bonus(depth: Depth) -> i32 {
    let d = depth / ONE_PLY;
    (24 * d * d + 100 * d - 100).clamp(0, 6000)
}

/// Moves `h` towards +/-[`HISTORY_MAX`] by `bonus` (negative for a malus).
fn history_update(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Razoring: at depth <= this, a node [`Params::razor_margin`] below alpha per ply asks the
/// quiescence.
const RAZOR_MAX_DEPTH: Depth = 2 * ONE_PLY;
/// With this many empty cells or fewer a node searches every move to its full depth: no
/// pruning, no reductions, so the search ends on full boards and sees the draw, or in renju
/// black left with only forbidden cells. The pruned search missed the white replies that
/// force such a foul and scored it +40. Solving 15 cells costs about 360,000 nodes (130 ms
/// here); 16 takes 1.7 million. (The four renju games lost so against Rapfi were already
/// lost at 17 to 19 cells: black's overline points outlast the cells it may play.)
const EXACT_MAX_EMPTY: usize = 15;
/// Internal iterative reduction applies from this depth on.
const IIR_MIN_DEPTH: Depth = 4 * ONE_PLY;
/// The eval stack's mark for a node without a usable static value.
const NO_EVAL: Score = Score::MIN;
/// What stops a search, besides the stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub soft_ms: Option<u64>,
    pub hard_ms: Option<u64>,
    /// Root moves searched to the full window at each depth, best first (0 or 1: just the
    /// best; more: multi-PV, each line searched with the better ones excluded).
    pub multipv: usize,
    /// Whether time this move leaves unspent is time for later moves (a match clock that
    /// binds). When not (a turn limit alone binds), a forced move thinks its whole turn: what
    /// it fills the table and the histories with is the next move's head start.
    pub spare_time_carries: bool,
}

/// How a running search is steered from another thread: stopped, or given its time limits
/// late (a ponder search runs without any until the opponent plays the expected move).
#[derive(Debug)]
pub struct SearchControl {
    stop: AtomicBool,
    /// Bumped whenever the limits below change, so the search re-reads them.
    version: AtomicU64,
    /// Milliseconds from the search's start; `u64::MAX` = none.
    soft_ms: AtomicU64,
    hard_ms: AtomicU64,
    /// `u64::MAX` = none.
    depth: AtomicU64,
    nodes: AtomicU64,
    /// Nodes searched by the helper threads so far (Lazy SMP), for the reports.
    helper_nodes: AtomicU64,
}

impl Default for SearchControl {
    fn default() -> Self {
        SearchControl {
            stop: AtomicBool::new(false),
            version: AtomicU64::new(0),
            soft_ms: AtomicU64::new(u64::MAX),
            hard_ms: AtomicU64::new(u64::MAX),
            depth: AtomicU64::new(u64::MAX),
            nodes: AtomicU64::new(u64::MAX),
            helper_nodes: AtomicU64::new(0),
        }
    }
}

impl SearchControl {
    /// The search ends as soon as it notices (within a few hundred nodes); its answer is
    /// the best move of the iterations it finished.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// New limits (times in milliseconds from the search's start, nodes counted from its
    /// start): they replace the ones it started with.
    pub fn set_limits(&self, limits: &Limits) {
        let put = |a: &AtomicU64, v: Option<u64>| a.store(v.unwrap_or(u64::MAX), Ordering::SeqCst);
        put(&self.soft_ms, limits.soft_ms);
        put(&self.hard_ms, limits.hard_ms);
        put(&self.depth, limits.depth.map(|d| d.max(1) as u64));
        put(&self.nodes, limits.nodes);
        self.version.fetch_add(1, Ordering::SeqCst);
    }

    /// `current` with the limits of [`SearchControl::set_limits`], when they changed since
    /// `seen`. The control holds only the clock, depth and node limits: `multipv` and
    /// `spare_time_carries` stay the search's own.
    fn limits_update(&self, seen: &mut u64, current: &Limits) -> Option<Limits> {
        let v = self.version.load(Ordering::SeqCst);
        if v == *seen {
            return None;
        }
        *seen = v;
        let get = |a: &AtomicU64| Some(a.load(Ordering::SeqCst)).filter(|&t| t != u64::MAX);
        Some(Limits {
            soft_ms: get(&self.soft_ms),
            hard_ms: get(&self.hard_ms),
            depth: get(&self.depth).map(|d| d.min(MAX_DEPTH as u64) as i32),
            nodes: get(&self.nodes),
            ..*current
        })
    }
}

/// One finished iteration, reported as it happens.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// Which line of a multi-PV search, 0 for the best.
    pub line: usize,
    pub depth: i32,
    pub seldepth: usize,
    pub score: Score,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<Pos>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Pos>,
    pub score: Score,
    pub depth: i32,
    pub seldepth: usize,
    pub nodes: u64,
    pub elapsed_ms: u64,
    pub pv: Vec<Pos>,
    /// A multi-PV search's lines, best first, as (score, principal variation); empty
    /// otherwise.
    pub lines: Vec<(Score, Vec<Pos>)>,
}

/// Late-move reductions for every move after the first, by [plies of depth][move number]:
/// round(ln(depth)·ln(move number + 1) · the rule's factor) plies, as a [`Depth`]. Near the
/// fight almost every candidate makes or blocks a three, so reducing only quiet moves reduced
/// almost nothing. Rules whose fives are harder to make (standard's exact five, renju's fouls)
/// keep more depth. Whole plies: the same table in sixteenths, with the history term in
/// sixteenths too, played +0 [-19, +19] (freestyle, 500 games at 100 ms).
fn reduction_table(lmr_percent: i32) -> Box<[[Depth; 64]; 64]> {
    let factor = f64::from(lmr_percent) / 100.0;
    let mut t = Box::new([[0i32; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((d as f64).ln() * ((i + 1) as f64).ln() * factor).round() as Depth * ONE_PLY;
        }
    }
    t
}

struct Worker<'a, E: Evaluator = Classical> {
    board: Board<E>,
    tt: &'a TranspositionTable,
    history: &'a mut [[i32; 2]],
    vcf_cache: &'a mut [u64],
    vct_cache: &'a mut [u64],
    correction: &'a mut [i32],
    /// Continuation history ([`cont`]).
    cont: &'a mut [i16],
    /// This thread's fail-high counts ([`stats`]).
    cutoffs: &'a mut stats::CutoffStats,
    limits: Limits,
    /// Polled with the clock: the stop flag and late time limits.
    control: &'a SearchControl,
    /// The version of `control`'s time limits this worker has read.
    time_version: u64,
    /// The helper threads' control, on the main thread of a multi-threaded search: it
    /// stops them and counts their nodes.
    helpers: Option<&'a SearchControl>,
    /// 0 on the main thread, 1.. on the helpers of a Lazy SMP search.
    thread: usize,
    /// A helper's nodes already added to its control's count.
    reported_nodes: u64,
    start: Instant,
    nodes: u64,
    /// Node count at which the clock and the stop flag are read next.
    next_check: u64,
    seldepth: usize,
    aborted: bool,
    killers: [[Pos; 2]; MAX_PLY + 1],
    pv: Vec<[Pos; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Caro's blocked fives break the shortcuts that assume a four must be answered on its
    /// five point, so caro searches without them.
    caro: bool,
    /// The margins and reduction terms: the rule's, or a tuner's.
    params: Params,
    move_buf: Vec<Pos>,
    /// When not empty, the only moves searched at the root.
    root_moves: Vec<Pos>,
    /// Moves never searched at the root (Yixin-Board's `yxblock`).
    excluded: Vec<Pos>,
    /// Late-move reductions by [depth][move number].
    reductions: Box<[[Depth; 64]; 64]>,
    /// Move-count pruning's limits by depth.
    move_counts: MoveCounts,
    /// A move list for each ply's node, kept between nodes so that none allocates.
    move_lists: Vec<Vec<Scored>>,
    /// The quiescence's fours, likewise.
    four_lists: Vec<Vec<(Threat, Pos)>>,
    /// Static evaluation of each node on the current line, [`NO_EVAL`] where the node was
    /// threatened: to tell whether the side to move is improving.
    evals: [Score; MAX_PLY + 2],
    /// Whether each node on the current line is or was on a principal variation (PV nodes,
    /// and nodes the table marks so): Stockfish's and Rapfi's `ttPv`.
    tt_pv: [bool; MAX_PLY + 2],
    /// The running mean of the two sides' static values summed over a quiet move, in
    /// sixteenths ([`Params::eval_hist`]); `None` before the first.
    eval_pair_mean: Option<i32>,
    /// The history of the first [`LOW_PLY`] plies of this search, by ply and cell
    /// (Stockfish's low-ply history); empty when [`Params::low_ply`] is 0. The side to move
    /// at a ply is fixed within one search, so no colour index.
    low_ply: Vec<i32>,
    /// The reduction of the late-move search now under way below each ply, 0 for any
    /// other search ([`Params::hindsight`]).
    prior_r: [Depth; MAX_PLY + 2],
    /// The move a singular test leaves out of its search of the node at each ply.
    singular: [Option<Pos>; MAX_PLY + 2],
    /// The position database, where it holds positions near this search's root.
    book: Option<book::BookView>,
}

/// Evaluation corrections (Stockfish's correction history, keyed by each colour's stones):
/// entries per table, tables (two keys by two sides to move), the fixed-point unit of an
/// entry, and the most one search's difference counts.
const CORRECTION_SIZE: usize = 1 << 14;
const CORRECTION_TABLES: usize = 4;
const CORRECTION_UNIT: i32 = 16;
const CORRECTION_MAX: Score = 400;

impl<'a, E: Evaluator> Worker<'a, E> {
    /// A worker for one search thread from `board`.
    fn new(
        board: &Board<E>,
        limits: &Limits,
        tables: &'a mut ThreadTables,
        shared: Shared<'a>,
        thread: usize,
    ) -> Worker<'a, E> {
        let params = shared.params;
        Worker {
            board: board.clone(),
            tt: shared.tt,
            history: &mut tables.history,
            vcf_cache: &mut tables.vcf_cache,
            vct_cache: &mut tables.vct_cache,
            correction: &mut tables.correction,
            cont: &mut tables.cont,
            cutoffs: &mut tables.cutoffs,
            limits: *limits,
            control: shared.control,
            time_version: 0,
            helpers: shared.helpers,
            thread,
            reported_nodes: 0,
            start: shared.start,
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            aborted: false,
            killers: [[Pos::NONE; 2]; MAX_PLY + 1],
            pv: vec![[Pos::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            caro: matches!(board.rule(), Rule::Caro | Rule::CaroExact),
            params,
            move_buf: Vec::new(),
            root_moves: Vec::new(),
            excluded: shared.excluded.to_vec(),
            reductions: reduction_table(params.lmr_percent),
            move_counts: MoveCounts::new(&params),
            move_lists: vec![Vec::new(); MAX_PLY + 2],
            four_lists: vec![Vec::new(); MAX_PLY + 2],
            evals: [NO_EVAL; MAX_PLY + 2],
            tt_pv: [false; MAX_PLY + 2],
            eval_pair_mean: None,
            low_ply: if params.low_ply > 0 {
                vec![0; LOW_PLY * GRID_CELLS]
            } else {
                Vec::new()
            },
            prior_r: [0; MAX_PLY + 2],
            singular: [None; MAX_PLY + 2],
            book: shared.book.and_then(|l| book::BookView::new(l, board)),
        }
    }
}

impl<E: Evaluator> Worker<'_, E> {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Polls the stop conditions about every 256 nodes, a fraction of a millisecond. (A test
    /// of `nodes % 256 == 0` can miss its turn for long stretches, since VCF nodes count in
    /// between.)
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.next_check {
            if self.thread > 0 {
                self.report_helper_nodes();
            }
            self.next_check = self.nodes + 256;
            self.sync_time();
            if self.control.stopped() {
                self.aborted = true;
            } else if let Some(h) = self.limits.hard_ms {
                if self.elapsed_ms() >= h {
                    self.aborted = true;
                }
            }
        }
        if let Some(n) = self.limits.nodes {
            if self.nodes >= n {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Takes in limits set on the control since the last look (the main thread's: a
    /// helper's control never changes them).
    fn sync_time(&mut self) {
        if let Some(l) = self
            .control
            .limits_update(&mut self.time_version, &self.limits)
        {
            self.limits = l;
        }
    }

    /// Adds a helper's nodes since its last report to the count its control keeps.
    fn report_helper_nodes(&mut self) {
        let n = self.nodes - self.reported_nodes;
        self.reported_nodes = self.nodes;
        self.control.helper_nodes.fetch_add(n, Ordering::Relaxed);
    }

    /// Nodes searched by every thread of this search.
    fn total_nodes(&self) -> u64 {
        self.nodes
            + self
                .helpers
                .map_or(0, |h| h.helper_nodes.load(Ordering::Relaxed))
    }

    /// Whether the side to move may play `p`, and with which class (renju black's class is
    /// the exact one).
    fn legal_threat(&self, p: Pos) -> Option<Threat> {
        let me = self.board.side();
        if me == Color::Black && self.board.rule() == Rule::Renju {
            if self.board.needs_foul_check(p) {
                let t = self.board.black_threat_exact(p);
                return (t != Threat::Forbid).then_some(t);
            }
            let t = self.board.threat(me, p);
            return (t != Threat::Forbid).then_some(t);
        }
        Some(self.board.threat(me, p))
    }

    /// Cells where `c` makes a five, found near the last move first.
    fn five_cells(&self, c: Color, out: &mut Vec<Pos>) {
        out.clear();
        let want = self.board.count(c, Threat::Five) as usize;
        if want == 0 {
            return;
        }
        if let Some((last, _)) = self.board.last_move() {
            if !last.is_none() {
                for &d in &DIR_OFFSETS {
                    for k in (-4isize..=4).filter(|&k| k != 0) {
                        let q = last.offset(k * d);
                        if self.board.grid().at(q.index() as isize) == 0
                            && self.board.is_win_move(c, q)
                            && !out.contains(&q)
                        {
                            out.push(q);
                        }
                    }
                }
            }
        }
        if out.len() < want {
            out.clear();
            out.extend(
                self.board
                    .empty_cells()
                    .filter(|&q| self.board.is_win_move(c, q)),
            );
        }
    }

    /// Which moves a node considers: all, or only the answers to a threat (see [`Focus`]).
    fn focus(&self, defend_only: bool) -> Focus {
        if defend_only {
            Focus::OpenFour
        } else {
            Focus::All
        }
    }

    /// The moves the side to move's next move continues (see [`cont`]).
    #[inline]
    fn cont_prev(&self) -> cont::Prev {
        let h = self.board.history();
        let back = |k: usize| h.len().checked_sub(k).map_or(Pos::NONE, |i| h[i].0);
        cont::Prev {
            side: self.board.side().index(),
            moves: [back(1), back(2)],
        }
    }

    /// The slots of the evaluation corrections for the position: one keyed by the side to
    /// move's stones, one by the opponent's, each apart for either side to move.
    #[inline]
    fn correction_slots(&self) -> [usize; 2] {
        let me = self.board.side();
        let mask = CORRECTION_SIZE as u64 - 1;
        let slot = |table: usize, c: Color| {
            (table * 2 + me.index()) * CORRECTION_SIZE + (self.board.colour_hash(c) & mask) as usize
        };
        [slot(0, me), slot(1, me.opponent())]
    }

    /// What the searches below this position's stones have found the static value to be off
    /// by, on average (`Params::corr_weight` per cent of it).
    #[inline]
    fn eval_correction(&self) -> Score {
        if self.params.corr_weight == 0 {
            return 0;
        }
        let [a, b] = self.correction_slots();
        (self.correction[a] + self.correction[b]) * self.params.corr_weight
            / (2 * CORRECTION_UNIT * 100)
    }

    /// `raw`, a static value, with the position's correction (a mate score stays as it is).
    #[inline]
    fn corrected(&self, raw: Score) -> Score {
        if is_mate_score(raw) {
            raw
        } else {
            (raw + self.eval_correction()).clamp(-eval::WIN_MIN + 1, eval::WIN_MIN - 1)
        }
    }

    /// Moves the position's corrections towards `diff`, the search's value less the raw
    /// static value, by more for a deeper search.
    fn update_correction(&mut self, diff: Score, depth: Depth) {
        // a rule that reads no correction need not keep any (renju and caro, every node)
        if self.params.corr_weight == 0 {
            return;
        }
        let target = diff.clamp(-CORRECTION_MAX, CORRECTION_MAX) * CORRECTION_UNIT;
        let weight = (depth / ONE_PLY + 1).clamp(1, 16);
        for i in self.correction_slots() {
            let e = &mut self.correction[i];
            *e += (target - *e) * weight / 256;
        }
    }

    /// The static value of the position for the search: the evaluation at the rule's
    /// [`Params::eval_share`], and in renju near a full board black's lack of cells
    /// ([`eval::renju_fill`]).
    #[inline]
    fn static_value(&mut self) -> Score {
        self.board.flush_evaluation();
        let v = eval::evaluate(&self.board) * self.params.eval_share / 100;
        (v + eval::renju_fill(&self.board)).clamp(-eval::WIN_MIN + 1, eval::WIN_MIN - 1)
    }

    fn update_pv(&mut self, ply: usize, mv: Pos) {
        self.pv[ply][0] = mv;
        let n = self.pv_len[ply + 1];
        for i in 0..n {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = n + 1;
    }

    /// The verdict of the threat counts alone: decided (a five now, an unstoppable five, an
    /// open four the opponent cannot answer), one cell forced (the block of the opponent's
    /// five), or open.
    fn static_verdict(&mut self, ply: usize) -> Verdict {
        let me = self.board.side();
        let opp = me.opponent();
        if self.board.count(me, Threat::Five) > 0 {
            return Verdict::Decided(mate_in(ply + 1));
        }
        let opp_fives = self.board.count(opp, Threat::Five);
        if opp_fives > 0 && !self.caro {
            if opp_fives >= 2 {
                return Verdict::Decided(mated_in(ply + 2));
            }
            let mut cells = Vec::with_capacity(2);
            self.five_cells(opp, &mut cells);
            return match cells.first() {
                Some(&f) if self.board.is_legal(f) => Verdict::Forced(f),
                _ => Verdict::Decided(mated_in(ply + 2)),
            };
        }
        if opp_fives == 0
            && !self.caro
            && self.board.count(me, Threat::Flex4) > 0
            && !self.board.has_four_move(opp)
        {
            return Verdict::Decided(mate_in(ply + 3));
        }
        Verdict::Open
    }

    /// A pass searched with reduced depth, allowed only when the opponent cannot even make a
    /// four and the last move was no pass: its score when it still fails high. (A ply more
    /// reduction per 300 of static value above beta, session 21, commit 62d700e: -20 [-31,
    /// -9] at 40,000 nodes a move.)
    fn null_move(
        &mut self,
        depth: Depth,
        beta: Score,
        ply: usize,
        kind: NodeKind,
    ) -> Option<Score> {
        let opp = self.board.side().opponent();
        if self.board.has_four_move(opp) || self.board.last_move().is_some_and(|(p, _)| p.is_none())
        {
            return None;
        }
        let r =
            (params::NULL_REDUCTION_BASE + depth / ONE_PLY / params::NULL_REDUCTION_PER) * ONE_PLY;
        self.board.pass();
        let score = -self.search(
            (depth - ONE_PLY - r).max(0),
            -beta,
            -beta + 1,
            ply + 1,
            kind,
        );
        self.board.undo();
        if self.aborted {
            return Some(0);
        }
        (score >= beta).then(|| if is_mate_score(score) { beta } else { score })
    }
}

#[cfg(test)]
mod tests;

/// The `n` best-ordered legal moves of `board`'s side to move (threats first), without a
/// search: candidates for the engine's opening tools.
pub fn ranked_moves(board: &Board, n: usize) -> Vec<Pos> {
    // fresh tables, as a new game's: the ranking is the same whatever was searched before
    let mut tables = ThreadTables::for_ordering();
    let control = SearchControl::default();
    let tt = TranspositionTable::new(0);
    let shared = Shared {
        tt: &tt,
        control: &control,
        helpers: None,
        excluded: &[],
        start: std::time::Instant::now(),
        params: Params::for_board(board.rule(), board.width(), board.height()),
        book: None,
    };
    let mut w = Worker::new(board, &Limits::default(), &mut tables, shared, 0);
    w.ordered_moves(0, None, Focus::All)
        .iter()
        .take(n)
        .map(|m| m.mv)
        .collect()
}
