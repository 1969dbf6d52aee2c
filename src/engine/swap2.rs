//! The Swap2 opening (SWAP2BOARD, Yixin-Board's `yxswap2stepN`) and balancing stones
//! (`yxbalanceone`, `yxbalancetwo`): searches that choose stones rather than a move.

use super::task::{limits_for, share_of, Answer, Report, Task, ThinkLimits};
use super::work::Work;
use super::{Engine, MoveError};
use crate::board::{Board, Pos};
use crate::eval::Score;

/// The answer to a SWAP2BOARD step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Swap2Answer {
    /// Three stones: black, white, black.
    Opening([Pos; 3]),
    /// We take black.
    Swap,
    /// We stay white and play this move.
    Move(Pos),
    /// After three stones: a white and a black stone, and the opponent chooses its colour.
    Two(Pos, Pos),
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

/// How many candidate stones a balancing search tries for each stone it places.
pub(super) const BALANCE_CANDIDATES: usize = 8;

impl Engine {
    /// Answers a SWAP2BOARD step on this thread (see [`Task::Swap2`]); the position is left
    /// as the answer makes it.
    pub fn swap2(
        &mut self,
        stones: &[Pos],
        t: &ThinkLimits,
        allow_two: bool,
    ) -> Result<Swap2Answer, MoveError> {
        self.check_swap2(stones)?;
        let (tx, rx) = std::sync::mpsc::channel();
        let task = Task::Swap2 {
            stones: stones.to_vec(),
            limits: *t,
            allow_two,
        };
        self.start(task, move |r| {
            let _ = tx.send(r);
        });
        self.wait();
        match rx.try_iter().last() {
            Some(Report::Done(Answer::Swap2(a))) => Ok(a),
            _ => Ok(Swap2Answer::Swap),
        }
    }

    /// Sets up the stones of a Swap2 step (0, 3 or 5 distinct cells, black first).
    pub fn check_swap2(&mut self, stones: &[Pos]) -> Result<(), MoveError> {
        if ![0, 3, 5].contains(&stones.len()) {
            return Err(MoveError::Unbalanced {
                own: stones.len(),
                opponent: 0,
            });
        }
        self.set_alternating(stones)
    }
}

impl Work {
    /// Answers a Swap2 step; the position is left as the answer makes it.
    pub(super) fn swap2(
        &mut self,
        stones: &[Pos],
        t: &ThinkLimits,
        allow_two: bool,
    ) -> Swap2Answer {
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
            let Some(stones) = o
                .iter()
                .map(|&(dx, dy)| Pos::at(cx + dx, cy + dy).filter(|&p| empty.contains(p)))
                .collect::<Option<Vec<Pos>>>()
            else {
                continue;
            };
            let Ok(b) = super::alternating(&empty, &stones) else {
                continue;
            };
            self.board = b;
            let limits = limits_for(&self.board, &share);
            let r = self.think(&limits, &[], &mut |_| {});
            let pos = [stones[0], stones[1], stones[2]];
            if best.is_none_or(|(_, s)| r.score.abs() < s.abs()) {
                best = Some((pos, r.score));
            }
        }
        // the first opening fits every board from 5x5 up, so there is always one
        let (pos, _) = best.unwrap_or(([self.board.center(); 3], 0));
        self.board = super::alternating(&empty, &pos).unwrap_or(empty);
        Swap2Answer::Opening(pos)
    }

    /// `n` (1 or 2) stones, alternating from the side to move, after which the side to move
    /// has a searched value as close as possible to `bias`; played on the board. Each
    /// stone is chosen among the best-ordered candidates, the last one by a short search of
    /// every candidate.
    pub(super) fn balance(&mut self, n: usize, bias: Score, t: &ThinkLimits) -> (Vec<Pos>, Score) {
        let n = n.clamp(1, 2);
        let firsts = crate::search::ranked_moves(&self.board, BALANCE_CANDIDATES);
        let seconds = if n == 2 { BALANCE_CANDIDATES } else { 1 };
        let share = share_of(t, (firsts.len() * seconds).max(1) as u64 + 1);
        let mut best: Option<(Vec<Pos>, Score)> = None;
        for &a in &firsts {
            self.board.make(a);
            let seconds: Vec<Option<Pos>> = if n == 2 {
                let ranked = crate::search::ranked_moves(&self.board, BALANCE_CANDIDATES);
                ranked.into_iter().map(Some).collect()
            } else {
                vec![None]
            };
            for &b in &seconds {
                if let Some(b) = b {
                    self.board.make(b);
                }
                let limits = limits_for(&self.board, &share);
                let r = self.think(&limits, &[], &mut |_| {});
                let stones: Vec<Pos> = std::iter::once(a).chain(b).collect();
                if best
                    .as_ref()
                    .is_none_or(|(_, v)| (r.score - bias).abs() < (v - bias).abs())
                {
                    best = Some((stones, r.score));
                }
                if b.is_some() {
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
