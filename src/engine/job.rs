//! Runs a job on the engine's own thread: a move, the N best moves, a ponder search, the
//! Swap2 steps, balancing stones and the Soosorv steps (see [`Task`]).

use super::task::{limits_for, step_limits, Answer, Report, Task};
use super::work::Work;
use crate::search::Limits;

impl Work {
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
}
