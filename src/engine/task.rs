//! What a job on the engine's thread is asked to do and what it reports, and how a job's
//! clock becomes the limits of its searches (shared by every kind of job).

use super::soosorv::{SoosorvAnswer, SoosorvStep};
use super::swap2::Swap2Answer;
use crate::board::{Board, Pos};
use crate::eval::Score;
use crate::search::time;
use crate::search::time::Clock;
use crate::search::{Iteration, Limits, SearchResult};

/// How a search should be limited.
#[derive(Clone, Copy, Debug)]
pub struct ThinkLimits {
    pub clock: Clock,
    pub max_depth: Option<i32>,
    pub max_nodes: Option<u64>,
}

impl ThinkLimits {
    /// A search of `nodes` nodes (at least one), whatever the clock: for data generation.
    pub fn by_nodes(nodes: u64) -> ThinkLimits {
        ThinkLimits {
            clock: Clock {
                turn_ms: 0,
                match_ms: 0,
                left_ms: None,
                increment_ms: 0,
            },
            max_depth: None,
            max_nodes: Some(nodes.max(1)),
        }
    }
}

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
        stones: Vec<Pos>,
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
    let budget = time::budget(&t.clock, board.stone_count(), empties);
    Limits {
        depth: t.max_depth,
        nodes: t.max_nodes,
        soft_ms: Some(budget.soft_ms),
        hard_ms: Some(budget.hard_ms),
        multipv: 0,
        spare_time_carries: budget.spare_time_carries,
    }
}
