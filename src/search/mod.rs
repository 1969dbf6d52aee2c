//! Iterative-deepening principal-variation alpha-beta search with threat-based move
//! ordering, a transposition table and a VCF (victory by continuous fours) solver standing in
//! for quiescence.

mod quiesce;
mod root;
pub mod time;
pub mod tt;
mod vcf;
mod vct;

use crate::board::{Board, Color, Pos, DIR_OFFSETS, GRID_CELLS};
use crate::eval::{self, is_mate_score, mate_in, mated_in, Score, INFINITE, WIN_MIN};
use crate::pattern::{Pattern, Threat};
use crate::rules::Rule;
use std::time::Instant;
use tt::{Bound, TranspositionTable};

pub const MAX_PLY: usize = 128;
const MAX_DEPTH: i32 = 100;

/// Reverse futility: a non-PV node whose static value beats beta by this much per ply of
/// depth left (less one, and one more when improving) returns it. (About a third of a
/// win-rate logit step: see the eval's scale.)
const RFP_MARGIN: Score = 190;
/// History scores stay within +/- this (a bonus shrinks as the score nears it: "gravity").
const HISTORY_MAX: i32 = 16_384;
/// A history score counts this many times less than the threat scores in move ordering.
const HISTORY_ORDER_DIV: i32 = 200;
/// Moves searched and failed before a cut-off get at most this many maluses.
const MAX_MALUS_MOVES: usize = 32;

/// Moves searched at a node before move-count pruning: 3 + depth^1.32, halved when the
/// side to move is not improving.
fn move_count_limit(depth: i32, improving: bool) -> usize {
    let n = 3.0 + (depth.max(0) as f64).powf(1.32);
    (if improving { n } else { n / 2.0 }) as usize
}

/// The history bonus of a cut-off at `depth`.
fn history_bonus(depth: i32) -> i32 {
    (24 * depth * depth + 100 * depth - 100).clamp(0, 6000)
}

/// Moves `h` towards +/-[`HISTORY_MAX`] by `bonus` (negative for a malus).
fn history_update(h: &mut i32, bonus: i32) {
    *h += bonus - *h * bonus.abs() / HISTORY_MAX;
}

/// Razoring: at depth <= this, a node this far below alpha per ply asks the quiescence.
const RAZOR_MAX_DEPTH: i32 = 2;
const RAZOR_MARGIN: Score = 300;
/// The null move is tried from this depth on.
const NULL_MOVE_MIN_DEPTH: i32 = 3;
/// Late-move reduction factors per rule (see [`reduction_table`]).
const LMR_FACTOR_FREESTYLE: f64 = 1.0;
const LMR_FACTOR_STANDARD: f64 = 0.78;
const LMR_FACTOR_RENJU: f64 = 0.75;
/// The eval stack's mark for a node without a usable static value.
const NO_EVAL: Score = Score::MIN;

/// What stops a search, besides the stop flag.
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub soft_ms: Option<u64>,
    pub hard_ms: Option<u64>,
}

/// One finished iteration, reported as it happens.
#[derive(Clone, Debug)]
pub struct Iteration {
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
}

/// A new table's memory is mapped at no more than this share of a move's hard limit, in
/// per cent: the first moves of a game under Gomocup's manager pay for it on their clock.
const TT_GROWTH_SHARE_PERCENT: u64 = 5;
/// Assumed cost of mapping and touching fresh memory until one growth has been timed,
/// bytes per ms (2-3 GB/s on the machines here; 0.3-0.9 GB/s seen under Gomocup's manager).
const TT_INITIAL_MAP_RATE: u64 = 512 << 10;
/// The smallest table, where the growth starts.
const TT_MIN_BYTES: usize = 1 << 20;

/// Search state that lives across moves: the transposition table and history.
pub struct Searcher {
    tt: TranspositionTable,
    /// The most the table may take; it grows towards this as the clock allows.
    tt_limit: usize,
    /// Measured cost of a fresh table, bytes per ms of the clock.
    map_rate: u64,
    history: Vec<[i32; 2]>,
    vcf_cache: Vec<u64>,
    vct_cache: Vec<u64>,
    /// Root moves the next searches must not play.
    excluded: Vec<Pos>,
}

impl Searcher {
    /// A searcher whose table may grow to `tt_bytes`. Nothing large is allocated before
    /// the first search: a manager may suspend the engine between START and the first move,
    /// and the process must stay within its memory limit from the start.
    pub fn new(tt_bytes: usize) -> Searcher {
        Searcher {
            tt: TranspositionTable::new(TT_MIN_BYTES.min(tt_bytes)),
            tt_limit: tt_bytes,
            map_rate: TT_INITIAL_MAP_RATE,
            history: vec![[0; 2]; GRID_CELLS],
            vcf_cache: vec![0; 1 << 16],
            vct_cache: vec![0; 1 << 18],
            excluded: Vec::new(),
        }
    }

    pub fn tt_bytes(&self) -> usize {
        self.tt.size_bytes()
    }

    /// Root moves the following searches must not play (none by default).
    pub fn set_excluded(&mut self, moves: Vec<Pos>) {
        self.excluded = moves;
    }

    /// The most the table may grow to.
    pub fn tt_limit(&self) -> usize {
        self.tt_limit
    }

    /// Sets the most the table may take; a larger table is given back at once.
    pub fn set_tt_limit(&mut self, bytes: usize) {
        self.tt_limit = bytes;
        if self.tt.size_bytes() > bytes {
            // drop the old table first: both together may not fit
            self.tt = TranspositionTable::new(0);
            self.tt = TranspositionTable::new(bytes);
        }
    }

    /// Grows the table towards its limit by as much as fits in a small share of this
    /// move's hard limit (all of it when the search has no time limit). The contents are
    /// lost, which costs little: it happens in the first few moves of a game.
    fn grow_tt(&mut self, limits: &Limits) {
        let current = self.tt.size_bytes();
        let affordable = match limits.hard_ms {
            None => usize::MAX,
            Some(h) => (h * TT_GROWTH_SHARE_PERCENT / 100).saturating_mul(self.map_rate) as usize,
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
        self.tt = TranspositionTable::new(0);
        self.tt = TranspositionTable::new(target);
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
        self.history.iter_mut().for_each(|h| *h = [0; 2]);
        self.vcf_cache.fill(0);
        self.vct_cache.fill(0);
    }

    /// A worker over this searcher's tables for one search from `board`.
    fn worker<'a>(
        &'a mut self,
        board: &Board,
        limits: &Limits,
        stop: &'a dyn Fn() -> bool,
        start: Instant,
    ) -> Worker<'a> {
        Worker {
            board: board.clone(),
            tt: &mut self.tt,
            history: &mut self.history,
            vcf_cache: &mut self.vcf_cache,
            vct_cache: &mut self.vct_cache,
            limits: *limits,
            stop,
            start,
            nodes: 0,
            next_check: 0,
            seldepth: 0,
            aborted: false,
            killers: [[Pos::NONE; 2]; MAX_PLY + 1],
            pv: vec![[Pos::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            caro: matches!(board.rule(), Rule::Caro | Rule::CaroExact),
            move_buf: Vec::new(),
            root_moves: Vec::new(),
            excluded: self.excluded.clone(),
            reductions: reduction_table(board.rule()),
            evals: [NO_EVAL; MAX_PLY + 2],
        }
    }

    /// Searches `board` for the side to move.
    pub fn think(
        &mut self,
        board: &Board,
        limits: &Limits,
        stop: &dyn Fn() -> bool,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        // the clock runs from here: growing the table is paid from the move's time
        let start = Instant::now();
        self.grow_tt(limits);
        self.tt.new_search();
        for h in self.history.iter_mut() {
            h[0] /= 4;
            h[1] /= 4;
        }
        let mut w = self.worker(board, limits, stop, start);
        w.root(on_iteration)
    }
}

/// Late-move reductions for every move after the first: round(ln(depth)·ln(move number + 1)
/// · the rule's factor). Near the fight almost every candidate makes or blocks a three, so
/// reducing only quiet moves reduced almost nothing. Rules whose fives are harder to make
/// (standard's exact five, renju's fouls) keep more depth.
fn reduction_table(rule: Rule) -> Box<[[i32; 64]; 64]> {
    let factor = match rule {
        Rule::Freestyle | Rule::Caro | Rule::CaroExact => LMR_FACTOR_FREESTYLE,
        Rule::Standard => LMR_FACTOR_STANDARD,
        Rule::Renju => LMR_FACTOR_RENJU,
    };
    let mut t = Box::new([[0i32; 64]; 64]);
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (i, r) in row.iter_mut().enumerate().skip(1) {
            *r = ((d as f64).ln() * ((i + 1) as f64).ln() * factor).round() as i32;
        }
    }
    t
}

struct Worker<'a> {
    board: Board,
    tt: &'a mut TranspositionTable,
    history: &'a mut [[i32; 2]],
    vcf_cache: &'a mut [u64],
    vct_cache: &'a mut [u64],
    limits: Limits,
    /// Polled with the clock: true when the search must end now.
    stop: &'a dyn Fn() -> bool,
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
    move_buf: Vec<Pos>,
    /// When not empty, the only moves searched at the root.
    root_moves: Vec<Pos>,
    /// Moves never searched at the root (Yixin-Board's `yxblock`).
    excluded: Vec<Pos>,
    /// Late-move reductions by [depth][move number].
    reductions: Box<[[i32; 64]; 64]>,
    /// Static evaluation of each node on the current line, [`NO_EVAL`] where the node was
    /// threatened: to tell whether the side to move is improving.
    evals: [Score; MAX_PLY + 2],
}

/// Moves the best of `moves[i..]` to `i`; equal scores go by cell index, so the order
/// never depends on how the moves were stored.
#[inline]
fn pick_best(moves: &mut [Scored], i: usize) {
    let mut best = i;
    for j in i + 1..moves.len() {
        let (a, b) = (&moves[j], &moves[best]);
        if a.score > b.score || (a.score == b.score && a.mv < b.mv) {
            best = j;
        }
    }
    moves.swap(i, best);
}

/// The moves a node generates. Facing an open-four threat (the opponent's open three, or
/// a cell giving it two fours): our fours and the cells on its four lines; everything else
/// loses to the threat. (The same restriction facing a four-three or double-three threat,
/// to our fours and the cells on the opponent's lines of three, measured -36 +/- 44 Elo at
/// 100 ms a move and +10 +/- 48 when taken out again: those answers are ordered first
/// instead, by their defence scores.)
#[derive(Clone, Copy, PartialEq, Eq)]
enum Focus {
    All,
    OpenFour,
}

/// A move with its ordering score.
#[derive(Clone, Copy)]
struct Scored {
    mv: Pos,
    score: i32,
}

impl Worker<'_> {
    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    /// Polls the stop conditions about every 1024 nodes. (A test of `nodes % 1024 == 0`
    /// can miss its turn for long stretches, since VCF nodes count in between.)
    #[inline]
    fn check_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + 1024;
            if (self.stop)() {
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

    /// Whether `p` answers the threat a node focuses on (or is one of our fours).
    fn in_focus(&self, p: Pos, focus: Focus) -> bool {
        let opp = self.board.side().opponent();
        let cell = self.board.cell(p);
        let line_min = match focus {
            Focus::All => return true,
            Focus::OpenFour => Pattern::Block4,
        };
        cell.threat(self.board.side()) >= Threat::Block4
            || (0..4).any(|d| cell.pattern(opp, d) >= line_min)
    }

    /// Legal moves for the side to move, scored and sorted best first (ties by cell index).
    fn ordered_moves(&mut self, ply: usize, tt_move: Pos, focus: Focus) -> Vec<Scored> {
        let mut moves = self.scored_moves(ply, tt_move, focus);
        moves.sort_unstable_by(|a, b| b.score.cmp(&a.score).then(a.mv.cmp(&b.mv)));
        moves
    }

    /// Legal moves for the side to move with their ordering scores, in cell order.
    fn scored_moves(&mut self, ply: usize, tt_move: Pos, focus: Focus) -> Vec<Scored> {
        let me = self.board.side();
        let mut cands = std::mem::take(&mut self.move_buf);
        self.board.candidates(&mut cands);
        let mut moves = Vec::with_capacity(cands.len());
        for &p in &cands {
            if ply == 0
                && (self.excluded.contains(&p)
                    || !self.root_moves.is_empty() && !self.root_moves.contains(&p))
            {
                continue;
            }
            let Some(t) = self.legal_threat(p) else {
                continue;
            };
            if t < Threat::Block4 && !self.in_focus(p, focus) {
                continue;
            }
            let mut score = eval::move_score(&self.board, p, t);
            if p == tt_move {
                score += 1 << 24;
            } else if self.killers[ply].contains(&p) {
                score += 60;
            }
            score += self.history[p.index()][me.index()] / HISTORY_ORDER_DIV;
            moves.push(Scored { mv: p, score });
        }
        self.move_buf = cands;
        moves
    }

    fn update_pv(&mut self, ply: usize, mv: Pos) {
        self.pv[ply][0] = mv;
        let n = self.pv_len[ply + 1];
        for i in 0..n {
            self.pv[ply][i + 1] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = n + 1;
    }

    /// The verdict of the threat counts alone: `Err(score)` when the node is decided (a five
    /// now, an unstoppable five, an open four the opponent cannot answer), else `Ok` with
    /// the one cell that blocks the opponent's five, or `Pos::NONE` when nothing is forced.
    fn static_verdict(&mut self, ply: usize) -> Result<Pos, Score> {
        let me = self.board.side();
        let opp = me.opponent();
        if self.board.count(me, Threat::Five) > 0 {
            return Err(mate_in(ply + 1));
        }
        let mut forced = Pos::NONE;
        let opp_fives = self.board.count(opp, Threat::Five);
        if opp_fives > 0 && !self.caro {
            if opp_fives >= 2 {
                return Err(mated_in(ply + 2));
            }
            let mut cells = Vec::with_capacity(2);
            self.five_cells(opp, &mut cells);
            match cells.first() {
                Some(&f) if self.board.is_legal(f) => forced = f,
                _ => return Err(mated_in(ply + 2)),
            }
        }
        if opp_fives == 0
            && !self.caro
            && self.board.count(me, Threat::Flex4) > 0
            && !self.board.has_four_move(opp)
        {
            return Err(mate_in(ply + 3));
        }
        Ok(forced)
    }

    /// A pass searched with reduced depth, allowed only when the opponent cannot even make a
    /// four and the last move was no pass: its score when it still fails high.
    fn null_move(&mut self, depth: i32, beta: Score, ply: usize) -> Option<Score> {
        let opp = self.board.side().opponent();
        if self.board.has_four_move(opp) || self.board.last_move().is_some_and(|(p, _)| p.is_none())
        {
            return None;
        }
        let r = 2 + depth / 4;
        self.board.pass();
        let score = -self.search((depth - 1 - r).max(0), -beta, -beta + 1, ply + 1, false);
        self.board.undo();
        if self.aborted {
            return Some(0);
        }
        (score >= beta).then(|| if is_mate_score(score) { beta } else { score })
    }

    /// The node search. Returns a score from the side to move's view.
    fn search(
        &mut self,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
    ) -> Score {
        debug_assert!(alpha < beta);
        // Step 1. Initialise the node.
        self.pv_len[ply] = 0;
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.check_abort() {
            return 0;
        }
        if ply >= MAX_PLY - 1 {
            return eval::evaluate(&self.board);
        }
        if self.board.is_full() {
            return 0;
        }
        let me = self.board.side();
        let opp = me.opponent();

        // Step 2. Static win checks from the threat counts.
        let forced = match self.static_verdict(ply) {
            Ok(forced) => forced,
            Err(score) => return score,
        };

        // Step 3. Mate-distance pruning.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }

        // Step 4. Transposition table.
        let key = self.board.hash();
        let hit = self.tt.probe(key, ply);
        let mut tt_move = Pos::NONE;
        if let Some(h) = hit {
            tt_move = h.mv;
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }

        // Step 5. Leaves: the static value. (Searching on below the horizon when the opponent
        // threatens a winning four cost 51 +/- 49 Elo at 100 ms a move: the threat weights of
        // the evaluation already price the threat, and the depth is worth more.)
        let defend_only = forced.is_none()
            && !self.caro
            && self.board.count(opp, Threat::Flex4) > 0
            && self.board.count(me, Threat::Flex4) == 0;
        if depth <= 0 && forced.is_none() {
            // (A full VCF probe here cost more depth than it found wins: about -90 Elo at
            // 100 ms a move in self-play. The quiescence is far narrower.)
            return self.quiesce(depth, alpha, beta, ply);
        }
        // A forced block below the horizon keeps its negative depth: it is part of the
        // quiescence.
        let static_eval = match hit {
            Some(h) => h.eval,
            None => eval::evaluate(&self.board),
        };
        let threatened = !forced.is_none() || defend_only;
        self.evals[ply] = if threatened { NO_EVAL } else { static_eval };
        let improving = ply >= 2
            && self.evals[ply] != NO_EVAL
            && (self.evals[ply - 2] == NO_EVAL || self.evals[ply] > self.evals[ply - 2]);

        // Step 6a. Reverse futility: far enough above beta that the opponent's best reply at
        // this depth is not expected to bring it back (+67 +/- 33 Elo at 100 ms a move in a
        // prototype on 0.2).
        // (Caro searches without the four shortcuts, so `threatened` misses a four there:
        // ask the counts directly.)
        if !pv_node
            && !threatened
            && self.board.count(opp, Threat::Five) == 0
            && self.board.count(opp, Threat::Flex4) == 0
            && !is_mate_score(static_eval)
            && !is_mate_score(beta)
            && static_eval - RFP_MARGIN * (depth - 1 - improving as i32).max(0) >= beta
        {
            return static_eval;
        }

        // Step 6b. Razoring: far below alpha near the leaves, only a four could save the
        // node, and the quiescence tries exactly those.
        if !pv_node
            && !threatened
            && depth <= RAZOR_MAX_DEPTH
            && !is_mate_score(alpha)
            && static_eval + RAZOR_MARGIN * depth < alpha
        {
            let v = self.quiesce(0, alpha, alpha + 1, ply);
            if self.aborted {
                return 0;
            }
            if v <= alpha {
                return v;
            }
        }

        // Step 6c. Null move: a pass, when the opponent cannot even make a four, and a
        // reduced search still fails high.
        if !pv_node && !threatened && depth >= NULL_MOVE_MIN_DEPTH && static_eval >= beta {
            if let Some(score) = self.null_move(depth, beta, ply) {
                return score;
            }
        }

        // Step 7. Moves, in stages: a forced block; else the TT move, searched before any
        // other move is generated (most cut nodes need nothing more); then the rest, which
        // the loop picks best first, since a full sort would mostly be wasted. Facing an
        // open-four threat only its answers are generated, and all at once: their number
        // decides the extension.
        let focus = if forced.is_none() && !self.caro {
            self.focus(defend_only)
        } else {
            Focus::All
        };
        let tt_first = forced.is_none()
            && !defend_only
            && !tt_move.is_none()
            && (ply != 0 || !self.excluded.contains(&tt_move))
            && self.board.is_legal(tt_move)
            && self.in_focus(tt_move, focus);
        let mut moves = if !forced.is_none() {
            vec![Scored {
                mv: forced,
                score: 0,
            }]
        } else if tt_first {
            vec![Scored {
                mv: tt_move,
                score: 0,
            }]
        } else {
            self.scored_moves(ply, tt_move, focus)
        };
        let mut generated = !tt_first;
        if moves.is_empty() {
            // nothing stops the threat (or no legal move): lost
            return mated_in(ply + 2);
        }
        // A single reply costs no depth, nor does one of the few answers to a threat of an
        // open four (+60 +/- 49 Elo at 100 ms a move): it lets the search follow a chain of
        // threes as far as a chain of fours.
        let extension = if generated
            && (moves.len() == 1 || (defend_only && moves.len() <= 4 && ply < 24))
            && ply < MAX_PLY / 2
        {
            1
        } else {
            0
        };

        // Step 8. The move loop: PVS with late-move reductions and pruning of late quiet
        // moves near the leaves.
        let orig_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move = Pos::NONE;
        let mut tried = [Pos::NONE; MAX_MALUS_MOVES];
        let mut tried_n = 0;
        let futile = !pv_node && !threatened && depth <= 3 && static_eval + 150 * depth <= alpha;
        let mut i = 0;
        loop {
            if i == moves.len() {
                if generated {
                    break;
                }
                generated = true;
                let rest = self.scored_moves(ply, tt_move, focus);
                moves.extend(rest.into_iter().filter(|m| m.mv != tt_move));
                if i == moves.len() {
                    break;
                }
            }
            pick_best(&mut moves, i);
            i += 1;
            let i = i - 1;
            let mv = moves[i].mv;
            let quiet = self.board.threat(me, mv) < Threat::Flex3
                && self.board.threat(opp, mv) < Threat::Flex3
                && mv != tt_move;
            // Move-count pruning: once a move that does not lose is in hand, moves this late
            // in the order are skipped unless they make a four; fewer when not improving.
            if ply > 0
                && !threatened
                && i > 0
                && best > -WIN_MIN
                && i >= move_count_limit(depth, improving)
                && self.board.threat(me, mv) < Threat::Block4
            {
                continue;
            }
            if quiet && !pv_node && !threatened && i > 0 && best > -WIN_MIN {
                // late-move pruning: quiet moves this late almost never matter near leaves
                if depth <= 6 && i >= (3 + depth * depth) as usize {
                    continue;
                }
                if futile {
                    continue;
                }
            }
            self.board.make(mv);
            let new_depth = depth - 1 + extension;
            let mut score;
            if i == 0 {
                score = -self.search(new_depth, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= 2 {
                    r = self.reductions[(depth as usize).min(63)][i.min(63)];
                    if pv_node {
                        r -= 1;
                    } else if !improving {
                        r += 1;
                    }
                    r = r.clamp(0, new_depth.max(0));
                }
                score = -self.search(new_depth - r, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.search(new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta && pv_node {
                    score = -self.search(new_depth, -beta, -alpha, ply + 1, true);
                }
            }
            self.board.undo();
            if self.aborted {
                return 0;
            }
            if score < beta && tried_n < MAX_MALUS_MOVES {
                tried[tried_n] = mv;
                tried_n += 1;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                        }
                        let bonus = history_bonus(depth);
                        history_update(&mut self.history[mv.index()][me.index()], bonus);
                        for &q in &tried[..tried_n] {
                            history_update(&mut self.history[q.index()][me.index()], -bonus);
                        }
                        break;
                    }
                }
            }
        }
        if best == -INFINITE {
            // every move was pruned: the static value stands
            best = static_eval.min(beta);
        }

        // Step 9. Store the result.
        let bound = if best >= beta {
            Bound::Lower
        } else if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, ply, best_move, best, static_eval, depth, bound);
        best
    }
}

#[cfg(test)]
mod tests;
