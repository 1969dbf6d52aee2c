//! The root: immediate wins and forced blocks, the threat-space probes, then iterative
//! deepening with aspiration windows.

use super::{time, Focus, Iteration, NodeKind, SearchResult, Worker, MAX_DEPTH, ONE_PLY};
use crate::board::Pos;
use crate::eval::{self, is_mate_score, mate_in, mated_in, Evaluator, Score, INFINITE};
use crate::pattern::Threat;

/// What the root knows before iterative deepening.
#[derive(Clone, Copy)]
enum AtRoot {
    /// The move, its score and the depth to report: no search.
    Decided(Pos, Score, i32),
    /// The one block of the opponent's five: searched only for its value.
    Forced(Pos),
    Open,
}

impl<E: Evaluator> Worker<'_, E> {
    /// Whether an iteration of `depth` already reached the full board on every line (the
    /// exact end searches every move), so deeper ones can find nothing new.
    fn depth_covers_board(&self, depth: i32) -> bool {
        depth as usize >= self.board.empty_count() + 2
    }

    /// A root search in a narrow window around the last score, widened on failure.
    fn aspiration(&mut self, depth: i32, prev: Score, swing: Score) -> Score {
        if depth < 5 || is_mate_score(prev) {
            return self.search(depth * ONE_PLY, -INFINITE, INFINITE, 0, NodeKind::Pv);
        }
        // The score swings between iterations (odd and even depths most): a window narrower
        // than the last swing mostly fails. Widening from the bound the search returned
        // (not from the old window) spares the re-searches that only met that bound. Both:
        // 137 -> 78 root searches over bench, +27 [+4, +50] Elo at 200 ms a move.
        let mut delta = 25 + swing.min(400) / 2;
        let (mut lo, mut hi) = (prev - delta, prev + delta);
        // fail-highs since the last fail-low: each takes `asp_fh` plies off the re-search
        let mut failed_high = 0;
        loop {
            let d = research_depth(depth, failed_high, self.params.asp_fh);
            let score = self.search(d * ONE_PLY, lo, hi, 0, NodeKind::Pv);
            if self.aborted {
                return score;
            }
            if score <= lo {
                lo = (score - delta).max(-INFINITE);
                failed_high = 0;
            } else if score >= hi {
                hi = (score + delta).min(INFINITE);
                failed_high = (failed_high + 1).min(3);
            } else {
                return score;
            }
            delta *= 3;
            if delta > 1000 {
                lo = -INFINITE;
                hi = INFINITE;
            }
        }
    }

    /// The root: immediate wins and forced blocks, a VCF probe, then iterative deepening.
    /// `start_helpers` is called once the candidates are known, before the threat probes
    /// (not when a five or a lost position decides the move at once).
    pub(super) fn root(
        &mut self,
        on_iteration: &mut dyn FnMut(&Iteration),
        start_helpers: &mut dyn FnMut(&Self),
    ) -> SearchResult {
        let me = self.board.side();
        let mut result = SearchResult {
            best: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed_ms: 0,
            pv: Vec::new(),
            lines: Vec::new(),
        };
        let moves = self.ordered_moves(0, None, Focus::All);
        // every legal cell, the nearest the centre first, in case the candidates near stones
        // are all illegal or excluded (an empty board with its centre blocked)
        let fallback = if moves.is_empty() {
            self.board
                .empty_cells()
                .filter(|&p| self.board.is_legal(p) && !self.excluded.contains(&p))
                .min_by_key(|&p| (self.board.centre_distance2(p), p))
        } else {
            None
        };
        let Some(first) = moves.first().map(|m| m.mv).or(fallback) else {
            return result;
        };
        // A five now; else the opponent's five to block; else our forced win.
        let at_root = match moves.iter().find(|m| self.board.is_win_move(me, m.mv)) {
            Some(m) => AtRoot::Decided(m.mv, mate_in(1), 1),
            None => self.root_block(first),
        };
        let at_root = match at_root {
            AtRoot::Decided(..) => at_root,
            _ => {
                // The helpers search from here on, while this thread runs the threat probes
                // (about a tenth of a short turn): from every candidate, as the probes may
                // yet narrow them.
                start_helpers(self);
                match self.root_win() {
                    Some((mv, n)) => AtRoot::Decided(mv, mate_in(n as usize), 1),
                    None => at_root,
                }
            }
        };
        let best = match at_root {
            AtRoot::Decided(mv, score, depth) => {
                (result.score, result.depth) = (score, depth);
                mv
            }
            AtRoot::Forced(block) => block,
            // The opponent's win by continuous fours, or by threats, if we let it: search
            // only the moves that stop it.
            AtRoot::Open => {
                let all: Vec<Pos> = moves.iter().map(|m| m.mv).collect();
                match self.root_defences(&all) {
                    Some(safe) => {
                        // a single move stops the opponent's threats: as forced as a block
                        if safe.len() == 1 {
                            self.hurry();
                        }
                        let best = safe[0];
                        self.root_moves = safe;
                        best
                    }
                    None => first,
                }
            }
        };
        result.best = Some(best);
        result.pv = vec![best];
        if matches!(at_root, AtRoot::Decided(..)) {
            return self.finish(result);
        }
        if self.limits.multipv > 1 {
            self.iterate_multipv(&mut result, on_iteration);
        } else {
            self.iterate(&mut result, first, on_iteration);
        }
        // Belt and braces: never answer an illegal move.
        if !result.best.is_some_and(|p| self.board.is_legal(p)) {
            result.best = moves.first().map(|m| m.mv).or(fallback);
        }
        self.finish(result)
    }

    /// `r` with this search's nodes, time and selective depth.
    fn finish(&self, mut r: SearchResult) -> SearchResult {
        r.nodes = self.total_nodes();
        r.elapsed_ms = self.elapsed_ms();
        r.seldepth = r.seldepth.max(self.seldepth);
        r
    }

    /// The opponent's five must be blocked. Two five points, or none we may play, decide the
    /// move at once (lost; `first` when nothing blocks); one is the move. A forced block still
    /// searches, only to report its value where the time saved stays on the game clock;
    /// under a turn limit alone the whole turn, whose table and histories the next move's
    /// search starts from.
    fn root_block(&mut self, first: Pos) -> AtRoot {
        let opp = self.board.side().opponent();
        if self.board.count(opp, Threat::Five) == 0 || self.caro {
            return AtRoot::Open;
        }
        let mut cells = Vec::new();
        self.five_cells(opp, &mut cells);
        let legal = cells
            .iter()
            .copied()
            .find(|&p| self.board.is_legal(p) && !self.excluded.contains(&p));
        match legal {
            Some(block) if cells.len() >= 2 => AtRoot::Decided(block, mated_in(2), 0),
            Some(block) => {
                self.hurry();
                AtRoot::Forced(block)
            }
            None => AtRoot::Decided(first, mated_in(2), 0),
        }
    }

    /// A forced reply: where time saved now can be spent later, search only a tenth of the
    /// soft limit (a fifth of the hard one) for its value and leave the rest on the clock.
    fn hurry(&mut self) {
        if self.limits.spare_time_carries {
            let elapsed = self.elapsed_ms();
            self.limits.soft_ms = self.limits.soft_ms.map(|s| elapsed + s / 10);
            self.limits.hard_ms = self.limits.hard_ms.map(|h| h.min(elapsed + h / 5));
        }
    }

    /// Whether this search may stop early to leave time on a game clock: spare time carries
    /// and only time limits it (a node-limited search, for data or analysis, searches its
    /// nodes, so that it stays the same search).
    fn clock_carries(&self) -> bool {
        self.limits.spare_time_carries && self.limits.nodes.is_none()
    }

    /// Our forced win by continuous fours, else by threes and fours: its first move and
    /// length (not a move the search must not play).
    fn root_win(&mut self) -> Option<(Pos, u32)> {
        let opp = self.board.side().opponent();
        if self.caro || self.board.count(opp, Threat::Five) > 0 {
            return None;
        }
        let allowed =
            |w: &Self, win: Option<(Pos, u32)>| win.filter(|(mv, _)| !w.excluded.contains(mv));
        let vcf = if self.board.has_four_move(self.board.side()) {
            self.vcf_root()
        } else {
            None
        };
        allowed(self, vcf).or_else(|| {
            let vct = self.vct_root();
            allowed(self, vct)
        })
    }

    /// The moves of `all` that stop the opponent's win by continuous fours, or by threats,
    /// when not all of them do.
    fn root_defences(&mut self, all: &[Pos]) -> Option<Vec<Pos>> {
        let opp = self.board.side().opponent();
        if self.caro || self.board.count(opp, Threat::Five) > 0 {
            return None;
        }
        let mut safe = all.to_vec();
        if let Some(s) = self.vcf_defences(&safe) {
            safe = s;
        }
        if let Some(s) = self.vct_defences(&safe) {
            safe = s;
        }
        (safe.len() < all.len()).then_some(safe)
    }

    /// Iterative deepening from depth 1 until a limit, a proven result or a full board.
    fn iterate(
        &mut self,
        result: &mut SearchResult,
        first: Pos,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best_move = result.best.unwrap_or(first);
        let mut prev_score = 0;
        let mut swing = 0;
        let mut stable = 0;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let score = self.aspiration(depth, prev_score, swing);
            swing = (score - prev_score).abs();
            prev_score = score;
            if self.aborted {
                // a partial iteration still counts if its first move was searched through
                if self.pv_len[0] > 0 && depth > 1 {
                    best_move = self.pv[0][0];
                    result.best = Some(best_move);
                    result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                }
                break;
            }
            let last_score = result.score;
            let new_best = if self.pv_len[0] > 0 {
                self.pv[0][0]
            } else {
                best_move
            };
            stable = if new_best == best_move { stable + 1 } else { 0 };
            best_move = new_best;
            result.best = Some(best_move);
            result.score = score;
            result.depth = depth;
            result.seldepth = self.seldepth;
            result.pv = if self.pv_len[0] > 0 {
                self.pv[0][..self.pv_len[0]].to_vec()
            } else {
                vec![best_move]
            };
            on_iteration(&Iteration {
                line: 0,
                depth,
                seldepth: self.seldepth,
                score,
                nodes: self.total_nodes(),
                elapsed_ms: self.elapsed_ms(),
                pv: result.pv.clone(),
            });
            if is_mate_score(score) && depth as Score >= eval::WIN - score.abs() {
                break;
            }
            // A mate the search has held for three iterations, won or lost, will not turn
            // into a game-changing move with more thought: where time carries, keep it.
            if self.clock_carries()
                && is_mate_score(score)
                && is_mate_score(last_score)
                && stable >= 2
            {
                break;
            }
            self.sync_time();
            if let Some(soft) = self.limits.soft_ms {
                // early iterations always differ: judge stability from depth 5 on
                let scale = if depth >= 5 {
                    time::soft_scale_percent(stable, last_score - score)
                } else {
                    100
                };
                let soft = (soft * scale / 100).min(self.limits.hard_ms.unwrap_or(u64::MAX));
                if self.elapsed_ms() >= soft {
                    break;
                }
            }
            if self.depth_covers_board(depth) {
                break;
            }
            // a depth limit may come late (a ponder search's, when the guess was right)
            if self.limits.depth.is_some_and(|d| depth >= d) {
                break;
            }
        }
    }
}

impl<E: Evaluator> Worker<'_, E> {
    /// Iterative deepening of a multi-PV search: at each depth the best line, then the best
    /// with it excluded, and so on; the lines of the last finished depth, sorted by score,
    /// are the answer.
    fn iterate_multipv(
        &mut self,
        result: &mut SearchResult,
        on_iteration: &mut dyn FnMut(&Iteration),
    ) {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let excluded = self.excluded.clone();
        let mut prev: Vec<Score> = Vec::new();
        for depth in 1..=max_depth {
            let mut lines: Vec<(Score, Vec<Pos>)> = Vec::new();
            let mut seldepth = 0;
            for i in 0..self.limits.multipv {
                self.seldepth = 0;
                let score = self.aspiration(depth, prev.get(i).copied().unwrap_or(0), 0);
                seldepth = seldepth.max(self.seldepth);
                if self.aborted || self.pv_len[0] == 0 {
                    break;
                }
                let pv = self.pv[0][..self.pv_len[0]].to_vec();
                self.excluded.push(pv[0]);
                lines.push((score, pv));
            }
            self.excluded.clone_from(&excluded);
            if self.aborted || lines.is_empty() {
                // a depth counts only when every line finished
                break;
            }
            lines.sort_by_key(|l| std::cmp::Reverse(l.0));
            prev = lines.iter().map(|l| l.0).collect();
            result.best = Some(lines[0].1[0]);
            result.score = lines[0].0;
            result.pv.clone_from(&lines[0].1);
            result.depth = depth;
            result.seldepth = seldepth;
            for (i, (score, pv)) in lines.iter().enumerate() {
                on_iteration(&Iteration {
                    line: i,
                    depth,
                    seldepth,
                    score: *score,
                    nodes: self.total_nodes(),
                    elapsed_ms: self.elapsed_ms(),
                    pv: pv.clone(),
                });
            }
            result.lines = lines;
            self.sync_time();
            if self.limits.soft_ms.is_some_and(|s| self.elapsed_ms() >= s)
                || self.limits.depth.is_some_and(|d| depth >= d)
                || self.depth_covers_board(depth)
            {
                break;
            }
        }
    }
}

/// The depth of an aspiration re-search after `failed_high` fail-highs in a row, with
/// `plies` off for each ([`Params::asp_fh`](super::Params::asp_fh)): a fail-high above the
/// last score is mostly confirmed at a lower depth, and the next iteration goes deeper anyway.
fn research_depth(depth: i32, failed_high: i32, plies: i32) -> i32 {
    (depth - failed_high * plies).max(depth / 2).min(depth)
}

/// Lazy SMP: helper `thread` skips the depths this returns true for, so that the threads
/// spread over neighbouring depths instead of all searching the same one (the schedule of
/// Stockfish 9's helpers).
fn skip_depth(thread: usize, depth: i32) -> bool {
    const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
    const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
    let i = (thread - 1) % 20;
    ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
}

impl<E: Evaluator> Worker<'_, E> {
    /// A helper thread's iterative deepening: it only fills the shared table, until the
    /// main thread stops it.
    pub(super) fn iterate_helper(&mut self) {
        let max_depth = self.limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut prev_score = 0;
        let mut swing = 0;
        for depth in 1..=max_depth {
            if depth > 1 && skip_depth(self.thread, depth) {
                continue;
            }
            let score = self.aspiration(depth, prev_score, swing);
            if self.aborted {
                break;
            }
            swing = (score - prev_score).abs();
            prev_score = score;
            if self.depth_covers_board(depth) {
                break;
            }
        }
        self.report_helper_nodes();
    }
}

#[cfg(test)]
mod smp_tests {
    use super::{research_depth, skip_depth};

    #[test]
    fn fail_highs_shorten_the_research_down_to_half_the_depth() {
        assert_eq!(research_depth(12, 0, 1), 12);
        assert_eq!(research_depth(12, 2, 0), 12);
        assert_eq!(research_depth(12, 2, 1), 10);
        assert_eq!(research_depth(12, 3, 2), 6);
        assert_eq!(research_depth(12, 3, 4), 6);
        assert_eq!(research_depth(5, 3, 1), 2);
    }

    #[test]
    fn helpers_spread_over_depths() {
        // the first helper searches every other depth, the second the others
        let one: Vec<i32> = (1..=8).filter(|&d| !skip_depth(1, d)).collect();
        let two: Vec<i32> = (1..=8).filter(|&d| !skip_depth(2, d)).collect();
        assert_eq!(one, [2, 4, 6, 8]);
        assert_eq!(two, [1, 3, 5, 7]);
    }
}
