//! The state a job works on (a copy of the position, the searcher moved in from the engine,
//! the blocked cells and the job's control) and the searches every kind of job is built of.

use super::task::{limits_for, Answer, Report, ThinkLimits};
use crate::board::{Board, Pos};
use crate::search::{Iteration, Limits, SearchControl, SearchResult, Searcher};
use std::sync::Arc;

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

    /// A move's search that reports its answer as soon as the main search thread has it,
    /// not after the helper threads are joined: the move goes out at once.
    pub(super) fn think_and_tell(&mut self, limits: &Limits, report: &mut dyn FnMut(Report)) {
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
    pub(super) fn nbest(
        &mut self,
        t: &ThinkLimits,
        n: usize,
        report: &mut dyn FnMut(Report),
    ) -> Answer {
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
}
