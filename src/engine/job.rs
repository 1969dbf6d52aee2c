//! Searches that run on the engine's own thread: a move, the N best moves, a ponder search,
//! the Swap2 steps and balancing stones. A job works on a copy of the position and the
//! searcher moved in from the engine, reports through a callback and hands the searcher
//! back when it ends.

use super::soosorv::{SoosorvAnswer, SoosorvStep};
use super::{Swap2Answer, ThinkLimits, SWAP2_OPENINGS, SWAP_MARGIN};
use crate::board::{Board, Pos};
use crate::eval::Score;
use crate::search::time;
use crate::search::{Iteration, Limits, SearchControl, SearchResult, Searcher};
use std::sync::Arc;

/// How many candidate stones a balancing search tries for each stone it places.
pub(super) const BALANCE_CANDIDATES: usize = 8;

/// What the engine's thread is asked to do.
#[derive(Clone, Debug)]
pub enum Task {
    /// The best move for the side to move (not played); with `nbest` above 1, the best
    /// `nbest` moves, each searched with the others excluded (Yixin-Board's `yxnbest`).
    Think { limits: ThinkLimits, nbest: usize },
    /// Think on the opponent's time: the position after the opponent's expected `guess`,
    /// without a time limit until [`super::Engine::ponder_hit`] gives one or a stop ends it.
    Ponder { guess: Pos },
    /// A SWAP2BOARD step on these stones (0, 3 or 5, black first).
    Swap2 {
        stones: Vec<(i64, i64)>,
        limits: ThinkLimits,
        /// Whether two more stones (white, black) may answer three, handing the choice of
        /// colour back to the opponent.
        allow_two: bool,
    },
    /// `stones` (1 or 2) more stones, alternating from the side to move, that leave the
    /// side to move afterwards a searched value as close as possible to `bias`.
    Balance {
        stones: usize,
        bias: Score,
        limits: ThinkLimits,
    },
    /// A step of the Soosorv-8 opening rule on the position set up for it.
    Soosorv {
        step: SoosorvStep,
        limits: ThinkLimits,
    },
}

/// What a job reports while it runs and when it ends.
#[derive(Clone, Debug)]
pub enum Report {
    /// An iteration of the current search finished.
    Iteration(Iteration),
    /// The `index`-th best move of an N-best search (from 0), as it is found.
    Line(usize, SearchResult),
    /// The job ended with this answer; the engine's position is already updated by what
    /// the answer implies (Swap2, balance), except a searched move, which is not played.
    Done(Answer),
    /// The job failed (a bug): the engine is usable again, with fresh tables.
    Failed(String),
}

#[derive(Clone, Debug)]
pub enum Answer {
    /// The searched move (the best of an N-best search); `None` when nothing is legal.
    Move(SearchResult),
    Swap2(Swap2Answer),
    /// The balancing stones, and the value of the position they leave.
    Balance(Vec<Pos>, Score),
    Soosorv(SoosorvAnswer),
}

/// The state a job works on.
pub(super) struct Work {
    pub(super) board: Board,
    pub(super) searcher: Searcher,
    pub(super) blocked: Vec<Pos>,
    pub(super) control: Arc<SearchControl>,
}

impl Work {
    /// Searches the position; blocked cells and `also_excluded` are never played at the root
    /// while some other legal cell is left (a move always comes back).
    pub(super) fn think(
        &mut self,
        limits: &Limits,
        also_excluded: &[Pos],
        on_iteration: &mut dyn FnMut(&Iteration),
    ) -> SearchResult {
        self.exclude(also_excluded);
        self.searcher
            .think(&self.board, limits, &self.control, on_iteration)
    }

    /// Keeps the next searches off the blocked cells and `also`, while some other legal cell
    /// is left.
    fn exclude(&mut self, also: &[Pos]) {
        let b = &self.board;
        let mut excluded = self.blocked.clone();
        excluded.extend_from_slice(also);
        let open = b
            .empty_cells()
            .any(|p| b.is_legal(p) && !excluded.contains(&p));
        self.searcher
            .set_excluded(if open { excluded } else { Vec::new() });
    }

    /// Runs `task`; returns its answer for the caller to report as [`Report::Done`], or
    /// `None` when a searched move was reported already.
    pub(super) fn run(&mut self, task: &Task, report: &mut dyn FnMut(Report)) -> Option<Answer> {
        let answer = match task {
            Task::Think { limits, nbest } if *nbest > 1 => self.nbest(limits, *nbest, report),
            Task::Think { limits, .. } => {
                let limits = limits_for(&self.board, limits);
                self.think_and_tell(&limits, report);
                return None;
            }
            Task::Ponder { guess } => {
                self.board.make(*guess);
                self.think_and_tell(&Limits::default(), report);
                return None;
            }
            Task::Swap2 {
                stones,
                limits,
                allow_two,
            } => Answer::Swap2(self.swap2(stones, &step_limits(limits), *allow_two)),
            Task::Balance {
                stones,
                bias,
                limits,
            } => {
                let (ps, v) = self.balance(*stones, *bias, &step_limits(limits));
                Answer::Balance(ps, v)
            }
            Task::Soosorv { step, limits } => {
                Answer::Soosorv(self.soosorv(step, &step_limits(limits)))
            }
        };
        Some(answer)
    }

    /// A move's search that reports its answer as soon as the main search thread has it,
    /// not after the helper threads are joined: the move goes out at once.
    fn think_and_tell(&mut self, limits: &Limits, report: &mut dyn FnMut(Report)) {
        let report = std::cell::RefCell::new(report);
        self.exclude(&[]);
        self.searcher.think_and_tell(
            &self.board,
            limits,
            &self.control,
            &mut |it| (report.borrow_mut())(Report::Iteration(it.clone())),
            &mut |r| (report.borrow_mut())(Report::Done(Answer::Move(r.clone()))),
        );
    }

    /// The `n` best moves by a multi-PV search over the whole turn; each line is reported,
    /// best first, then the best move is the answer.
    fn nbest(&mut self, t: &ThinkLimits, n: usize, report: &mut dyn FnMut(Report)) -> Answer {
        let limits = Limits {
            // (yxsearchdefend asks for every legal move: the lines end with the root's moves)
            multipv: n.min(self.board.cell_count()),
            ..limits_for(&self.board, t)
        };
        let r = self.think(&limits, &[], &mut |it| {
            report(Report::Iteration(it.clone()))
        });
        if r.lines.is_empty() {
            // decided at the root (a five, a forced block, a proven win): one line
            report(Report::Line(0, r.clone()));
        }
        for (i, (score, pv)) in r.lines.iter().enumerate() {
            let line = SearchResult {
                best: pv.first().copied(),
                score: *score,
                pv: pv.clone(),
                lines: Vec::new(),
                ..r.clone()
            };
            report(Report::Line(i, line));
        }
        Answer::Move(r)
    }

    /// Answers a Swap2 step; the position is left as the answer makes it.
    fn swap2(&mut self, stones: &[(i64, i64)], t: &ThinkLimits, allow_two: bool) -> Swap2Answer {
        if stones.is_empty() {
            return self.swap2_opening(t);
        }
        let two = allow_two && stones.len() == 3;
        let share = if two { share_of(t, 2) } else { *t };
        let limits = limits_for(&self.board, &share);
        let r = self.think(&limits, &[], &mut |_| {});
        match r.best {
            // white is fine: stay white and play
            Some(p) if r.score > SWAP_MARGIN || (r.score > -SWAP_MARGIN && !two) => {
                self.board.make(p);
                Swap2Answer::Move(p)
            }
            Some(_) if two && r.score > -SWAP_MARGIN => {
                // too close to call: two more stones that leave it even, and the opponent
                // chooses
                let (ps, _) = self.balance(2, 0, &share);
                match ps[..] {
                    [w, b] => Swap2Answer::Two(w, b),
                    _ => Swap2Answer::Swap,
                }
            }
            _ => Swap2Answer::Swap,
        }
    }

    /// Three stones (black, white, black) near the centre that leave white's searched value
    /// closest to even, from a fixed list tried in order.
    fn swap2_opening(&mut self, t: &ThinkLimits) -> Swap2Answer {
        let (w, h) = (self.board.width() as i64, self.board.height() as i64);
        let (cx, cy) = (w / 2, h / 2);
        let share = share_of(t, SWAP2_OPENINGS.len() as u64 + 1);
        let mut best: Option<([Pos; 3], Score)> = None;
        let empty = Board::new(self.board.width(), self.board.height(), self.board.rule());
        for o in SWAP2_OPENINGS {
            let stones: Vec<(i64, i64)> = o.iter().map(|&(dx, dy)| (cx + dx, cy + dy)).collect();
            let Ok(b) = super::alternating(&empty, &stones) else {
                continue;
            };
            self.board = b;
            let limits = limits_for(&self.board, &share);
            let r = self.think(&limits, &[], &mut |_| {});
            let pos = [0, 1, 2].map(|i| Pos::new(stones[i].0 as usize, stones[i].1 as usize));
            if best.is_none_or(|(_, s)| r.score.abs() < s.abs()) {
                best = Some((pos, r.score));
            }
        }
        // the first opening fits every board from 5x5 up, so there is always one
        let (pos, _) = best.unwrap_or(([self.board.center(); 3], 0));
        let stones: Vec<(i64, i64)> = pos.iter().map(|p| (p.x() as i64, p.y() as i64)).collect();
        self.board = super::alternating(&empty, &stones).unwrap_or(empty);
        Swap2Answer::Opening(pos)
    }

    /// `n` (1 or 2) stones, alternating from the side to move, after which the side to move
    /// has a searched value as close as possible to `bias`; played on the board. Each
    /// stone is chosen among the best-ordered candidates, the last one by a short search of
    /// every candidate.
    fn balance(&mut self, n: usize, bias: Score, t: &ThinkLimits) -> (Vec<Pos>, Score) {
        let n = n.clamp(1, 2);
        let firsts = crate::search::ranked_moves(&self.board, BALANCE_CANDIDATES);
        let seconds = if n == 2 { BALANCE_CANDIDATES } else { 1 };
        let share = share_of(t, (firsts.len() * seconds).max(1) as u64 + 1);
        let mut best: Option<(Vec<Pos>, Score)> = None;
        for &a in &firsts {
            self.board.make(a);
            let seconds = if n == 2 {
                crate::search::ranked_moves(&self.board, BALANCE_CANDIDATES)
            } else {
                vec![Pos::NONE]
            };
            for &b in &seconds {
                if !b.is_none() {
                    self.board.make(b);
                }
                let limits = limits_for(&self.board, &share);
                let r = self.think(&limits, &[], &mut |_| {});
                let stones: Vec<Pos> = [a, b].into_iter().filter(|p| !p.is_none()).collect();
                if best
                    .as_ref()
                    .is_none_or(|(_, v)| (r.score - bias).abs() < (v - bias).abs())
                {
                    best = Some((stones, r.score));
                }
                if !b.is_none() {
                    self.board.undo();
                }
                if self.control.stopped() {
                    break;
                }
            }
            self.board.undo();
            if self.control.stopped() {
                break;
            }
        }
        let (stones, v) = best.unwrap_or_default();
        for &p in &stones {
            self.board.make(p);
        }
        (stones, v)
    }
}

/// The most an opening step (Swap2, balancing, Soosorv: many searches for one answer) thinks
/// in all. Yixin-Board's unlimited level sends a 2,000 s turn, meant as "until stopped" for a
/// move; divided among a step's 27 searches that was 74 s each, half an hour for one answer.
pub(super) const STEP_MAX_MS: u64 = 60_000;

/// `t` for a whole opening step: the turn at most [`STEP_MAX_MS`].
pub(super) fn step_limits(t: &ThinkLimits) -> ThinkLimits {
    let mut t = *t;
    if t.clock.turn_ms > STEP_MAX_MS {
        t.clock.turn_ms = STEP_MAX_MS;
    }
    t
}

/// `t` with the turn (and what is left of the match) divided among `n` searches.
pub(super) fn share_of(t: &ThinkLimits, n: u64) -> ThinkLimits {
    let mut share = *t;
    let n = n.max(1);
    share.clock.turn_ms = (t.clock.turn_ms / n).max(1);
    share.clock.left_ms = t.clock.left_ms.map(|l| l / n as i64);
    share.max_nodes = t.max_nodes.map(|m| (m / n).max(1));
    share
}

/// The search limits of a move with `t` on `board`.
pub(super) fn limits_for(board: &Board, t: &ThinkLimits) -> Limits {
    let empties = board.cell_count() - board.stone_count();
    let budget = time::budget(&t.clock, empties);
    Limits {
        depth: t.max_depth,
        nodes: t.max_nodes,
        soft_ms: Some(budget.soft_ms),
        hard_ms: Some(budget.hard_ms),
        multipv: 0,
        spare_time_carries: budget.spare_time_carries,
    }
}
